import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger.std.ts';
import { configMigrations, migrateConfig } from './config-migrations.std.ts';
import { ConfigError, ConfigStore } from './config-store.node.ts';
import { CONFIG_SCHEMA_VERSION, defaultConfig, DEMO_DEFAULTS, KioskConfig } from '../../common/config-schema.std.ts';
import { withDotted } from '../../common/dotted-keys.std.ts';
import { linesOf, logText, recordingLogger } from '../../test/support/factories.std.ts';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-config-'));

/** A connected kiosk's file: what one bad value elsewhere must never take with it. */
const storedKiosk = {
  schemaVersion: 2,
  api: { baseUrl: 'https://loyalty.example.com/api', shopUuid: '7d5b3f0e-3c1a-4f8e-9a57-0c2d7b1e4a10' },
  kiosk: { modes: ['vouchers'] },
  manager: { pinHash: 'scrypt$16384$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g' },
};
const storedConfig = () => KioskConfig.parse(storedKiosk);

describe('ConfigStore', () => {
  it('starts on the spec defaults and writes them', () => {
    const dir = tempDir();
    const store = new ConfigStore({ dataDir: dir, logger: silentLogger });
    expect(store.getKey('session.camera_service')).toBe(3);
    expect(store.getKey('idle.timeoutSeconds')).toBe(60);
    expect(store.getKey('api.baseUrl')).toBeNull();
    expect(JSON.parse(fs.readFileSync(store.path, 'utf8')).session.facing_mode).toBe('user');
  });

  it('starts a new demo kiosk with e-mail, joining and the on-screen keyboard on; the console turns them off as usual', () => {
    const dir = tempDir();
    const store = new ConfigStore({ dataDir: dir, logger: silentLogger });
    for (const [key, value] of Object.entries(DEMO_DEFAULTS)) expect(store.getKey(key)).toBe(value);
    store.set('session.enable_registration', false);
    expect(new ConfigStore({ dataDir: dir, logger: silentLogger }).getKey('session.enable_registration')).toBe(false);

    // Provisioned onto a platform, a new kiosk starts on the plain defaults.
    const provisioned = new ConfigStore({ dataDir: tempDir(), logger: silentLogger, locked: { 'api.baseUrl': 'https://loyalty.example' } });
    expect(provisioned.getKey('session.enable_email_identification')).toBe(false);
    expect(provisioned.getKey('session.enable_on_screen_keyboard')).toBe(false);
  });

  it('refuses a PIN hash that is not one the kiosk writes, from a file or a command, and keeps the stored one (#20 §1)', async () => {
    const { hashPin } = await import('../manager/pin-hash.node.ts');
    const real = await hashPin('2580');
    expect(KioskConfig.safeParse({ manager: { pinHash: real } }).success).toBe(true);
    const malformed = ['x', 'scrypt$1$1$1$a$b', `${real}$`, real.replace('$32768$', '$1073741824$'), real.slice(0, -1), real.replace('scrypt', 'bcrypt')];
    for (const pinHash of malformed) expect(KioskConfig.safeParse({ manager: { pinHash } }).success).toBe(false);

    const dir = tempDir();
    const store = new ConfigStore({ dataDir: dir, logger: silentLogger });
    store.set('manager.pinHash', real);
    for (const pinHash of malformed) expect(() => store.set('manager.pinHash', pinHash)).toThrow(ConfigError);
    // A file edited by hand: the bad hash is dropped, never trusted (the console then stays locked or asks for a PIN).
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ ...storedKiosk, manager: { pinHash: 'scrypt$1$1$1$a$b' } }));
    expect(new ConfigStore({ dataDir: dir, logger: silentLogger }).getKey('manager.pinHash')).toBeNull();
  });

  it('sets typed values from text and keeps them across a reopen', () => {
    const dir = tempDir();
    const store = new ConfigStore({ dataDir: dir, logger: silentLogger });
    store.setFromText('scanner.serial.baudRate', '115200');
    store.setFromText('session.enable_registration', 'true');
    store.setFromText('locale.enabled', 'en,nl,de');
    store.setFromText('brand.name', '2024');
    const reopened = new ConfigStore({ dataDir: dir, logger: silentLogger });
    expect(reopened.getKey('scanner.serial.baudRate')).toBe(115200);
    expect(reopened.getKey('session.enable_registration')).toBe(true);
    expect(reopened.getKey('locale.enabled')).toEqual(['en', 'nl', 'de']);
    expect(reopened.getKey('brand.name')).toBe('2024');
  });

  it('refuses invalid values and unknown keys without writing anything', () => {
    const dir = tempDir();
    const store = new ConfigStore({ dataDir: dir, logger: silentLogger });
    const before = fs.readFileSync(store.path, 'utf8');
    expect(() => store.setFromText('session.camera_service', '4')).toThrow(ConfigError);
    expect(() => store.setFromText('kiosk.modes', 'casino')).toThrow(ConfigError);
    expect(() => store.setFromText('api.baseUrl', 'ftp://x.example')).toThrow(ConfigError);
    // Found by the config fuzz suite: an address that is no URL at all threw a TypeError from the https rule.
    expect(() => store.setFromText('api.baseUrl', '')).toThrow(ConfigError);
    expect(() => store.set('api.baseUrl', 'not a url')).toThrow(ConfigError);
    expect(() => store.setFromText('no.such.key', '1')).toThrow(/unknown setting/);
    expect(fs.readFileSync(store.path, 'utf8')).toBe(before);
  });

  it('keeps a file that is no JSON as a copy aside, byte for byte, warns and starts on defaults', () => {
    const dir = tempDir();
    const truncated = JSON.stringify(storedKiosk, null, 2).slice(0, 90);
    fs.writeFileSync(path.join(dir, 'config.json'), truncated);
    const { logger, lines } = recordingLogger();
    const store = new ConfigStore({ dataDir: dir, logger });
    expect(store.getKey('kiosk.modes')).toEqual(['regular']);
    const copies = fs.readdirSync(dir).filter((file) => file.startsWith('config.json.corrupt-'));
    expect(copies.map((file) => fs.readFileSync(path.join(dir, file), 'utf8'))).toEqual([truncated]);
    expect(lines).toContainEqual(expect.objectContaining({ level: 'error', fields: expect.objectContaining({ event: 'config.unreadable', reason: expect.stringMatching(/not valid JSON/) }) }));
    // The parser quotes the file; the log line must not.
    expect(logText(lines)).not.toContain('scrypt');

    // Bytes that are no text at all are kept exactly too.
    const garbage = Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0xc3]);
    const other = tempDir();
    fs.writeFileSync(path.join(other, 'config.json'), garbage);
    new ConfigStore({ dataDir: other, logger: silentLogger });
    const kept = fs.readdirSync(other).filter((file) => file.startsWith('config.json.corrupt-'));
    expect(kept.map((file) => fs.readFileSync(path.join(other, file)))).toEqual([garbage]);
  });

  it('moves a file larger than any settings file aside unread, whole, logs why and starts on defaults; read-only moves nothing (#28 §12)', () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.json');
    // Valid settings, padded past the bound: refused by its size, never parsed.
    const padded = `${JSON.stringify(storedKiosk)}${' '.repeat(1024 * 1024)}`;
    fs.writeFileSync(file, padded);
    expect(new ConfigStore({ dataDir: dir, logger: silentLogger, readOnly: true }).getKey('api.baseUrl')).toBeNull();
    expect(fs.readdirSync(dir)).toEqual(['config.json']);

    const { logger, lines } = recordingLogger();
    const store = new ConfigStore({ dataDir: dir, logger });
    expect(store.getKey('api.baseUrl')).toBeNull();
    expect(store.getKey('manager.pinHash')).toBeNull();
    const moved = fs.readdirSync(dir).filter((name) => name.startsWith('config.json.corrupt-'));
    expect(moved.map((name) => fs.readFileSync(path.join(dir, name), 'utf8'))).toEqual([padded]);
    expect(lines).toContainEqual(expect.objectContaining({ level: 'error', fields: expect.objectContaining({ event: 'config.refused', reason: expect.stringMatching(/too large/) }) }));
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(store.get());
  });

  it('reads no settings through a link planted as config.json: the link is moved aside, its target untouched (#28 §12)', () => {
    const dir = tempDir();
    const target = path.join(tempDir(), 'settings-elsewhere.json');
    fs.writeFileSync(target, JSON.stringify(storedKiosk));
    fs.symlinkSync(target, path.join(dir, 'config.json'));
    const store = new ConfigStore({ dataDir: dir, logger: silentLogger });
    expect(store.getKey('manager.pinHash')).toBeNull();
    expect(fs.readFileSync(target, 'utf8')).toBe(JSON.stringify(storedKiosk));
    const moved = fs.readdirSync(dir).filter((name) => name.startsWith('config.json.corrupt-'));
    expect(moved.map((name) => fs.readlinkSync(path.join(dir, name)))).toEqual([target]);
    expect(fs.lstatSync(store.path).isFile()).toBe(true);
  });

  it('keeps the PIN hash and the platform settings still legible in a file cut short', () => {
    const dir = tempDir();
    const { manager, api } = storedKiosk;
    const cut = JSON.stringify({ manager, api, kiosk: { modes: ['vouchers'] }, idle: { timeoutSeconds: 45 } }, null, 2);
    fs.writeFileSync(path.join(dir, 'config.json'), cut.slice(0, cut.indexOf('"vouchers"') + 4));
    const store = new ConfigStore({ dataDir: dir, logger: silentLogger });
    expect(store.getKey('manager.pinHash')).toBe(manager.pinHash);
    expect(store.getKey('api.baseUrl')).toBe(api.baseUrl);
    expect(store.getKey('api.shopUuid')).toBe(api.shopUuid);
    expect(store.isDemo()).toBe(false);
    // What the cut took falls back: the modes' value was cut inside its string, idle never came.
    expect(store.getKey('kiosk.modes')).toEqual(['regular']);
    expect(store.getKey('idle.timeoutSeconds')).toBe(defaultConfig().idle.timeoutSeconds);
  });

  it('moves nothing aside and keeps the settings file when provisioned values do not fit it', () => {
    const dir = tempDir();
    new ConfigStore({ dataDir: dir, logger: silentLogger }).setMany({ 'locale.enabled': ['en', 'nl'], 'locale.default': 'nl' });
    const { logger, lines } = recordingLogger();
    // Valid on its own, but this file's default language would no longer be enabled.
    const store = new ConfigStore({ dataDir: dir, logger, locked: { 'locale.enabled': ['en', 'de'] } });
    expect(store.getKey('locale.default')).toBe('nl');
    expect(store.getKey('locale.enabled')).toEqual(['en', 'nl']);
    expect(store.lockedKeys()).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
    expect(lines).toContainEqual(expect.objectContaining({ level: 'error', fields: expect.objectContaining({ event: 'config.provisioning_ignored' }) }));
  });

  it('starts a fresh folder on defaults when provisioned values do not fit them either', () => {
    const dir = tempDir();
    const store = new ConfigStore({ dataDir: dir, logger: silentLogger, locked: { 'locale.default': 'fr' } });
    expect(store.getKey('locale.default')).toBe('en');
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });

  it('reports why a folder cannot hold the file instead of moving a file that is not there', () => {
    const notAFolder = path.join(tempDir(), 'plain-file');
    fs.writeFileSync(notAFolder, '');
    expect(() => new ConfigStore({ dataDir: path.join(notAFolder, 'data'), logger: silentLogger })).toThrow(/ENOTDIR: not a directory, open/);
  });

  it('migrates an old file to the current version and writes it back', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ schemaVersion: 0, idle: { seconds: 45 } }));
    const store = new ConfigStore({
      dataDir: dir,
      logger: silentLogger,
      migrations: { ...configMigrations, 1: ({ idle, ...rest }) => ({ ...rest, idle: { timeoutSeconds: (idle as { seconds: number }).seconds } }) },
    });
    expect(store.getKey('idle.timeoutSeconds')).toBe(45);
    const written = JSON.parse(fs.readFileSync(store.path, 'utf8'));
    expect(written.schemaVersion).toBe(CONFIG_SCHEMA_VERSION);
    expect(written.idle).toEqual({ timeoutSeconds: 45, afterRedeemSeconds: 20, proofSeconds: 45 });
  });

  it('keeps every valid key when one value is bad: only that key falls back to its default, logged by name', () => {
    const dir = tempDir();
    const original = JSON.stringify({ ...storedKiosk, idle: { timeoutSeconds: 5 } });
    fs.writeFileSync(path.join(dir, 'config.json'), original);
    const { logger, lines } = recordingLogger();
    const store = new ConfigStore({ dataDir: dir, logger });
    expect(store.getKey('idle.timeoutSeconds')).toBe(60);
    expect(store.get()).toEqual({ ...storedConfig(), idle: { timeoutSeconds: 60, afterRedeemSeconds: 20, proofSeconds: 45 } });
    expect(lines.filter((line) => line.level === 'warn').map(({ fields }) => [fields.event, fields.key])).toEqual([['config.key_invalid', 'idle.timeoutSeconds']]);
    // Repaired on disk, with the file as it was kept beside it.
    expect(JSON.parse(fs.readFileSync(store.path, 'utf8'))).toEqual(store.get());
    const copies = fs.readdirSync(dir).filter((file) => file.startsWith('config.json.corrupt-'));
    expect(copies.map((file) => fs.readFileSync(path.join(dir, file), 'utf8'))).toEqual([original]);
  });

  it('never drops the PIN hash or the platform settings for bad values elsewhere, nor for entries it does not know', () => {
    const dir = tempDir();
    const bad = {
      ...storedKiosk,
      kiosk: { modes: ['casino'] },
      scanner: { serial: { baudRate: 'fast', usb: { vendorId: 'zz' } }, wedge: 7 },
      locale: { default: 'xx', enabled: ['de', 'fr'] },
      brand: { name: '', color: 'red', logo: 'x.png' },
      extra: true,
    };
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(bad));
    const { logger, lines } = recordingLogger();
    const store = new ConfigStore({ dataDir: dir, logger });
    expect(store.get().manager).toMatchObject(storedKiosk.manager);
    expect(store.get().api).toEqual(storedKiosk.api);
    expect(store.getKey('kiosk.modes')).toEqual(['regular']);
    expect(store.getKey('scanner.serial.baudRate')).toBe(9600);
    expect(store.getKey('scanner.serial.usb')).toBeNull();
    const invalid = linesOf(lines, 'config.key_invalid').map(({ fields }) => fields.key);
    expect(invalid).toEqual(expect.arrayContaining(['kiosk.modes', 'scanner.serial.baudRate', 'scanner.serial.usb', 'locale.default', 'brand.name', 'brand.color', 'brand.logo']));
    expect(store.getKey('brand.logo')).toBeNull();
    expect(linesOf(lines, 'config.entries_ignored').map(({ fields }) => fields.ignored)).toEqual([expect.arrayContaining([expect.stringMatching(/extra/)])]);
  });

  it('keeps a language pair that fits together, and falls back on both when the default is not one of the enabled', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ locale: { default: 'de', enabled: ['de', 'fr'] } }));
    expect(new ConfigStore({ dataDir: dir, logger: silentLogger }).get().locale).toEqual({ default: 'de', enabled: ['de', 'fr'] });
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ locale: { default: 'xx', enabled: ['de', 'fr'] } }));
    expect(new ConfigStore({ dataDir: dir, logger: silentLogger }).get().locale).toEqual({ default: 'en', enabled: ['en', 'nl'] });
  });

  it('opens a newer kiosk\'s file read-only: left untouched, its readable keys used, every write refused', () => {
    const dir = tempDir();
    const newer = JSON.stringify({ ...storedKiosk, schemaVersion: CONFIG_SCHEMA_VERSION + 1, kiosk: { modes: ['vouchers'], theme: 'dark' }, printer: { model: 'x' } });
    fs.writeFileSync(path.join(dir, 'config.json'), newer);
    const { logger, lines } = recordingLogger();
    const store = new ConfigStore({ dataDir: dir, logger });
    expect(store.get().manager).toMatchObject(storedKiosk.manager);
    expect(store.get().api).toEqual(storedKiosk.api);
    expect(store.getKey('kiosk.modes')).toEqual(['vouchers']);
    expect(lines).toContainEqual(expect.objectContaining({ level: 'error', fields: expect.objectContaining({ event: 'config.newer_schema' }) }));
    expect(store.readOnlyReason()).toMatch(new RegExp(`newer kiosk \\(schema version ${CONFIG_SCHEMA_VERSION + 1}`));
    expect(() => store.set('kiosk.modes', ['regular'])).toThrow(ConfigError);
    expect(() => store.set('kiosk.modes', ['regular'])).toThrow(/newer kiosk.*nothing was changed/);
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
    expect(fs.readFileSync(store.path, 'utf8')).toBe(newer);
  });

  it('a read-only open writes, creates and moves nothing, whatever the folder holds, and refuses writes', () => {
    const dir = tempDir();
    const open = () => new ConfigStore({ dataDir: dir, logger: silentLogger, readOnly: true });
    expect(open().get()).toEqual(withDotted(defaultConfig(), DEMO_DEFAULTS));
    expect(fs.readdirSync(dir)).toEqual([]);
    for (const content of ['{ "kiosk": ', JSON.stringify({ ...storedKiosk, idle: { timeoutSeconds: 5 } }), '[1, 2]']) {
      fs.writeFileSync(path.join(dir, 'config.json'), content);
      const store = open();
      expect(() => store.set('kiosk.modes', ['vouchers'])).toThrow(/opened read-only/);
      expect(fs.readdirSync(dir)).toEqual(['config.json']);
      expect(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).toBe(content);
    }
  });

  it('writes the file for its owner only (0600), also over a file an older kiosk left readable to all', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'config.json'), '{}', { mode: 0o644 });
    fs.chmodSync(path.join(dir, 'config.json'), 0o644);
    const store = new ConfigStore({ dataDir: dir, logger: silentLogger });
    store.set('kiosk.modes', ['vouchers']);
    expect(fs.statSync(store.path).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });
});

describe('config migrations', () => {
  it('runs each step in order up to the target version', () => {
    const migrated = migrateConfig(
      { schemaVersion: 1, idle: { seconds: 30 } },
      { 2: (raw) => ({ ...raw, idle: { timeoutSeconds: (raw.idle as { seconds: number }).seconds } }) },
      2,
    );
    expect(migrated).toEqual({ schemaVersion: 2, idle: { timeoutSeconds: 30 } });
  });

  it('turns a version 1 file\'s kiosk.mode into the one-mode list kiosk.modes, and writes it back at version 2', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ ...storedKiosk, schemaVersion: 1, kiosk: { mode: 'vouchers' } }));
    const { logger, lines } = recordingLogger();
    const store = new ConfigStore({ dataDir: dir, logger });
    expect(store.getKey('kiosk.modes')).toEqual(['vouchers']);
    expect(lines.map(({ fields }) => fields.event)).not.toEqual(expect.arrayContaining([expect.stringMatching(/^config\.(key_invalid|entries_ignored|provisioning_ignored)$/)]));
    const written = JSON.parse(fs.readFileSync(store.path, 'utf8'));
    expect(written).toMatchObject({ schemaVersion: 2, kiosk: { modes: ['vouchers'] } });
    expect(written.kiosk).not.toHaveProperty('mode');
  });

  it('gives a version 1 file without a kiosk section the default modes', () => {
    expect(migrateConfig({ schemaVersion: 1, idle: { timeoutSeconds: 30 } }, configMigrations, 2)).toEqual({ schemaVersion: 2, idle: { timeoutSeconds: 30 } });
    expect(migrateConfig({ kiosk: {} }, configMigrations, 2)).toEqual({ schemaVersion: 2, kiosk: {} });
    expect(KioskConfig.parse(migrateConfig({ schemaVersion: 1 }, configMigrations, 2)).kiosk.modes).toEqual(['regular']);
  });

  it('refuses a file from a newer kiosk', () => {
    expect(() => migrateConfig({ schemaVersion: 9 }, {}, 1)).toThrow(/newer kiosk/);
  });
});

describe('ConfigStore.watchExternalChanges', () => {
  it('reloads and notifies when another process writes a valid file, and ignores an invalid one', async () => {
    const dir = tempDir();
    const store = new ConfigStore({ dataDir: dir, logger: silentLogger });
    const seen: string[] = [];
    store.onChange((config) => seen.push(config.kiosk.modes.join(',')));
    const stop = store.watchExternalChanges();
    try {
      const other = new ConfigStore({ dataDir: dir, logger: silentLogger });
      other.set('kiosk.modes', ['vouchers']);
      await expect.poll(() => seen).toEqual(['vouchers']);
      expect(store.getKey('kiosk.modes')).toEqual(['vouchers']);

      fs.writeFileSync(store.path, '{"kiosk": {"mode": "teleport"}}');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(store.getKey('kiosk.modes')).toEqual(['vouchers']);
      expect(seen).toEqual(['vouchers']);
    } finally {
      stop();
    }
  });
});

describe('ConfigStore findings', () => {
  const openOn = (content: string, readOnly = false) => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'config.json'), content);
    return new ConfigStore({ dataDir: dir, logger: silentLogger, readOnly });
  };

  it('has none for a good file or a fresh folder', () => {
    expect(openOn(JSON.stringify(storedKiosk)).findings()).toEqual([]);
    expect(new ConfigStore({ dataDir: tempDir(), logger: silentLogger }).findings()).toEqual([]);
  });

  it('names each invalid key and the entries that are no setting, read-only too', () => {
    const file = JSON.stringify({ ...storedKiosk, idle: { timeoutSeconds: -5 }, kiosk: { colour: 'red' } });
    for (const readOnly of [false, true]) {
      const findings = openOn(file, readOnly).findings();
      expect(findings).toEqual([
        { severity: 'warn', problem: 'config key idle.timeoutSeconds is invalid; using its default', key: 'idle.timeoutSeconds', detail: expect.any(String) },
        { severity: 'warn', problem: 'config file entries that are no setting were ignored', key: null, detail: 'kiosk.colour' },
      ]);
    }
  });

  it('says a damaged file is no JSON, and a file over the bound was refused unread', () => {
    expect(openOn('{"api": {"baseUrl": "https://pl', true).findings()).toEqual([
      { severity: 'error', problem: expect.stringMatching(/^config file unreadable/), key: null, detail: expect.stringMatching(/^not valid JSON/) },
    ]);
    expect(openOn(`${JSON.stringify(storedKiosk)}${' '.repeat(1024 * 1024)}`, true).findings()).toEqual([
      { severity: 'error', problem: 'config file refused unread; starting on defaults', key: null, detail: expect.stringMatching(/too large/) },
    ]);
  });
});
