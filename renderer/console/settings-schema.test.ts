import { describe, expect, it } from 'vitest';
import { KIOSK_MODES } from '../../common/config-schema.std.ts';
import { consoleMessages } from '../i18n/messages/console.std.ts';
import { readDotted, withDotted } from '../../common/dotted-keys.std.ts';
import { CreatePortalSessionBody } from '../../api/portal-sessions.std.ts';
import { fieldKind, SESSION_KEYS, ConsoleConfig, sessionKeysFor } from './settings-schema.std.ts';

/** Every key the settings tab shows (SettingsTab.svelte). */
const FORM_KEYS = [
  'kiosk.modes',
  ...SESSION_KEYS,
  'scanner.connection',
  'scanner.serial.path',
  'scanner.serial.baudRate',
  'scanner.serial.dataBits',
  'scanner.serial.parity',
  'scanner.serial.stopBits',
  'scanner.serial.terminator',
  'idle.timeoutSeconds',
  'locale.enabled',
  'locale.default',
  'brand.name',
  'brand.color',
];

const UNNAMED_CHOICES = ['scanner.serial.dataBits', 'scanner.serial.stopBits', 'locale.default'];

describe('settings form from the config schema', () => {
  it('offers exactly the values the schema allows', () => {
    expect(fieldKind('kiosk.modes')).toEqual({ kind: 'list', choices: KIOSK_MODES });
    expect(fieldKind('session.camera_service')).toEqual({ kind: 'choice', choices: [1, 2, 3] });
    expect(fieldKind('session.enable_registration')).toEqual({ kind: 'toggle' });
    expect(fieldKind('scanner.serial.dataBits')).toEqual({ kind: 'choice', choices: [7, 8] });
    expect(fieldKind('scanner.serial.terminator')).toEqual({ kind: 'choice', choices: ['CR', 'LF', 'CRLF', 'idle'] });
    expect(fieldKind('scanner.serial.baudRate')).toEqual({ kind: 'number', min: 300, max: 921_600 });
    expect(fieldKind('idle.timeoutSeconds')).toEqual({ kind: 'number', min: 10, max: 3600 });
    expect(fieldKind('brand.name')).toEqual({ kind: 'text', maxLength: 60 });
    expect(fieldKind('scanner.serial.path')).toEqual({ kind: 'text', maxLength: null });
    expect(fieldKind('locale.enabled')).toEqual({ kind: 'list', choices: ['en', 'nl', 'de', 'fr'] });
  });

  it('shows every portal-session setting of the API', () => {
    expect(SESSION_KEYS).toEqual([
      'session.scanner_type',
      'session.enable_email_identification',
      'session.enable_registration',
      'session.enable_on_screen_keyboard',
      'session.camera_service',
      'session.facing_mode',
      'session.primary_identification_method',
      'session.allow_multiple_giftcards',
    ]);
  });

  it('shows a setting of one mode\'s create body only when that mode is on, the common ones always', () => {
    const common = Object.keys(CreatePortalSessionBody.shape)
      .filter((name) => !['shop_uuid', 'contact_uuid'].includes(name))
      .map((name) => `session.${name}`);
    for (const mode of KIOSK_MODES) {
      expect(sessionKeysFor([mode]), mode).toEqual(mode === 'redeem-giftcards' ? [...common, 'session.allow_multiple_giftcards'] : common);
    }
    // Among other modes, wherever it stands in the list.
    expect(sessionKeysFor(['regular', 'redeem-giftcards', 'pay-prepaid'])).toEqual([...common, 'session.allow_multiple_giftcards']);
    // While the form holds no valid mode (never saved so), only the common ones.
    expect(sessionKeysFor(undefined)).toEqual(common);
  });

  it('refuses a key the schema does not have', () => {
    expect(() => fieldKind('session.colour')).toThrow(/no setting/);
    expect(() => fieldKind('manager.pinHash')).toThrow(/no setting/);
  });

  it('has a label for every field and a name for every word choice, in every language', () => {
    for (const [locale, table] of Object.entries(consoleMessages)) {
      for (const key of FORM_KEYS) {
        expect(table, `${locale} ${key}`).toHaveProperty([`console.field.${key}`]);
        const kind = fieldKind(key);
        if (kind.kind !== 'choice') continue;
        // Bits speak for themselves and languages go by their own names; every other choice is named.
        if (UNNAMED_CHOICES.includes(key)) continue;
        for (const choice of kind.choices) expect(table, `${locale} ${key}=${choice}`).toHaveProperty([`console.choice.${key}.${choice}`]);
      }
    }
  });

  it('reads and replaces settings by dotted key without touching the original', () => {
    const config = ConsoleConfig.parse({});
    const changed = withDotted(config, { 'session.facing_mode': 'environment', 'idle.timeoutSeconds': 90 });
    expect(readDotted(changed, 'session.facing_mode')).toBe('environment');
    expect(readDotted(changed, 'idle.timeoutSeconds')).toBe(90);
    expect(readDotted(config, 'session.facing_mode')).toBe('user');
  });
});
