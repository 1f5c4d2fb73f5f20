import { describe, expect, it } from 'vitest';
import { KIOSK_MODES, KioskConfig } from '../../common/config-schema.std.ts';
import { CONFIG_KEYS } from './config-keys.std.ts';

/** The names the foundation issue fixes: other issues, kioskctl scripts and provisioning files rely on them. */
const FOUNDATION_KEYS = [
  'api.baseUrl',
  'api.shopUuid',
  'kiosk.modes',
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

/** Issue #13's fleet keys: provisioning files name them. */
const FLEET_KEYS = [
  'fleet.kioskId',
  'fleet.mqtt.url',
  'fleet.mqtt.username',
  'fleet.mqtt.topicPrefix',
  'fleet.groups',
  'fleet.homeAssistant.discovery',
  'fleet.homeAssistant.prefix',
  'update.channel',
  'update.feedUrl',
  'update.window',
  'schedule.quietHours.monday',
  'schedule.quietHours.sunday',
  'schedule.nightlyRestart',
];

describe('config keys', () => {
  it('include every key the foundation names, spelt exactly so', () => {
    expect(CONFIG_KEYS).toEqual(expect.arrayContaining(FOUNDATION_KEYS));
  });

  it('include the fleet keys, spelt exactly so', () => {
    expect(CONFIG_KEYS).toEqual(expect.arrayContaining(FLEET_KEYS));
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

  it('take a fleet broker over mqtts, or plain mqtt only on this computer', () => {
    const broker = (url: string) => KioskConfig.safeParse({ fleet: { mqtt: { url } } }).success;
    expect(broker('mqtts://broker.example:8883')).toBe(true);
    expect(broker('mqtt://127.0.0.1:1883')).toBe(true);
    expect(broker('mqtt://localhost:1883')).toBe(true);
    expect(broker('mqtt://broker.example:1883')).toBe(false);
    expect(broker('https://broker.example')).toBe(false);
  });

  it('default to no broker, the hostname as kiosk id and the loyalty-kiosk prefix', () => {
    expect(KioskConfig.parse({}).fleet).toEqual({
      kioskId: null,
      groups: [],
      mqtt: { url: null, username: null, topicPrefix: 'loyalty-kiosk' },
      homeAssistant: { discovery: false, prefix: 'homeassistant' },
    });
    expect(KioskConfig.safeParse({ fleet: { kioskId: 'a/b' } }).success).toBe(false);
  });

  it('keep "all" and "group" from kiosk ids, and take groups as single topic levels, each once', () => {
    const fleet = (value: unknown) => KioskConfig.safeParse({ fleet: value }).success;
    expect(fleet({ kioskId: 'all' })).toBe(false);
    expect(fleet({ kioskId: 'group' })).toBe(false);
    expect(fleet({ kioskId: 'store-0042' })).toBe(true);
    expect(fleet({ groups: ['store-0042', 'region-north', 'pilot'] })).toBe(true);
    expect(fleet({ groups: ['north/east'] })).toBe(false);
    expect(fleet({ groups: ['+'] })).toBe(false);
    expect(fleet({ groups: ['pilot', 'pilot'] })).toBe(false);
  });

  it('take an update feed over https (or on this computer), a window and weekday quiet hours', () => {
    const parses = (value: unknown) => KioskConfig.safeParse(value).success;
    expect(KioskConfig.parse({}).update).toEqual({ channel: 'stable', feedUrl: null, window: '03:00-05:00' });
    expect(parses({ update: { feedUrl: 'https://updates.example/kiosk' } })).toBe(true);
    expect(parses({ update: { feedUrl: 'http://127.0.0.1:8080' } })).toBe(true);
    expect(parses({ update: { feedUrl: 'http://updates.example' } })).toBe(false);
    expect(parses({ update: { channel: 'nightly' } })).toBe(false);
    expect(parses({ schedule: { quietHours: { friday: '22:00-07:00' }, nightlyRestart: '04:30' } })).toBe(true);
    expect(parses({ schedule: { quietHours: { someday: '22:00-07:00' } } })).toBe(false);
    expect(parses({ schedule: { nightlyRestart: '4:30' } })).toBe(false);
  });
});
