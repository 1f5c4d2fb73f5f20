import { describe, expect, it } from 'vitest';
import { KIOSK_MODES } from '../../common/config-schema.std.ts';
import { CONFIG_KEYS } from './config-keys.std.ts';

/** The names the foundation issue fixes: other issues, kioskctl scripts and provisioning files rely on them. */
const FOUNDATION_KEYS = [
  'api.baseUrl',
  'api.shopUuid',
  'kiosk.mode',
  'session.scanner_type',
  'session.enable_email_identification',
  'session.enable_registration',
  'session.enable_on_screen_keyboard',
  'session.camera_service',
  'session.facing_mode',
  'session.primary_identification_method',
  'scanner.connection',
  'scanner.serial.path',
  'scanner.serial.baudRate',
  'scanner.serial.terminator',
  'idle.timeoutSeconds',
  'locale.default',
  'locale.enabled',
  'manager.pinHash',
];

describe('config keys', () => {
  it('include every key the foundation names, spelt exactly so', () => {
    expect(CONFIG_KEYS).toEqual(expect.arrayContaining(FOUNDATION_KEYS));
  });

  it('offer exactly the seven kiosk modes', () => {
    expect([...KIOSK_MODES]).toEqual([
      'regular',
      'credit-reception',
      'redeem-giftcards',
      'top-up-giftcards',
      'pay-prepaid',
      'top-up-prepaid',
      'vouchers',
    ]);
  });
});
