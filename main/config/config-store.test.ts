import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../logging/logger.std.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { migrateConfig } from './config-migrations.std.ts';
import { ConfigError, ConfigStore } from './config-store.node.ts';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-config-'));

describe('ConfigStore', () => {
  it('starts on the spec defaults and writes them', () => {
    const dir = tempDir();
    const store = new ConfigStore({ dataDir: dir, logger: silentLogger });
    expect(store.getKey('session.camera_service')).toBe(3);
    expect(store.getKey('idle.timeoutSeconds')).toBe(60);
    expect(store.getKey('api.baseUrl')).toBeNull();
    expect(JSON.parse(fs.readFileSync(store.path, 'utf8')).session.facing_mode).toBe('user');
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
    expect(() => store.setFromText('kiosk.mode', 'casino')).toThrow(ConfigError);
    expect(() => store.setFromText('api.baseUrl', 'ftp://x.example')).toThrow(ConfigError);
    expect(() => store.setFromText('no.such.key', '1')).toThrow(/unknown setting/);
    expect(fs.readFileSync(store.path, 'utf8')).toBe(before);
  });

  it('moves a corrupt file aside, warns and starts on defaults', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'config.json'), '{ not json');
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (message) => void warnings.push(message) };
    const store = new ConfigStore({ dataDir: dir, logger });
    expect(store.getKey('kiosk.mode')).toBe('regular');
    expect(fs.readdirSync(dir).some((file) => file.startsWith('config.json.corrupt-'))).toBe(true);
    expect(warnings.join()).toMatch(/moved aside/);
  });

  it('moves nothing aside and keeps the settings file when provisioned values do not fit it', () => {
    const dir = tempDir();
    new ConfigStore({ dataDir: dir, logger: silentLogger }).setMany({ 'locale.enabled': ['en', 'nl'], 'locale.default': 'nl' });
    const errors: string[] = [];
    const logger: Logger = { ...silentLogger, error: (message) => void errors.push(message) };
    // Valid on its own, but this file's default language would no longer be enabled.
    const store = new ConfigStore({ dataDir: dir, logger, locked: { 'locale.enabled': ['en', 'de'] } });
    expect(store.getKey('locale.default')).toBe('nl');
    expect(store.getKey('locale.enabled')).toEqual(['en', 'nl']);
    expect(store.lockedKeys()).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
    expect(errors.join()).toMatch(/provisioning ignored/);
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
      migrations: { 1: ({ idle, ...rest }) => ({ ...rest, idle: { timeoutSeconds: (idle as { seconds: number }).seconds } }) },
    });
    expect(store.getKey('idle.timeoutSeconds')).toBe(45);
    const written = JSON.parse(fs.readFileSync(store.path, 'utf8'));
    expect(written.schemaVersion).toBe(1);
    expect(written.idle).toEqual({ timeoutSeconds: 45 });
  });

  it('treats a schema-breaking file as corrupt too', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ schemaVersion: 1, idle: { timeoutSeconds: -5 } }));
    const store = new ConfigStore({ dataDir: dir, logger: silentLogger });
    expect(store.getKey('idle.timeoutSeconds')).toBe(60);
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

  it('refuses a file from a newer kiosk', () => {
    expect(() => migrateConfig({ schemaVersion: 9 }, {}, 1)).toThrow(/newer kiosk/);
  });
});

describe('ConfigStore.watchExternalChanges', () => {
  it('reloads and notifies when another process writes a valid file, and ignores an invalid one', async () => {
    const dir = tempDir();
    const store = new ConfigStore({ dataDir: dir, logger: silentLogger });
    const seen: string[] = [];
    store.onChange((config) => seen.push(config.kiosk.mode));
    const stop = store.watchExternalChanges();
    try {
      const other = new ConfigStore({ dataDir: dir, logger: silentLogger });
      other.set('kiosk.mode', 'vouchers');
      await expect.poll(() => seen).toEqual(['vouchers']);
      expect(store.getKey('kiosk.mode')).toBe('vouchers');

      fs.writeFileSync(store.path, '{"kiosk": {"mode": "teleport"}}');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(store.getKey('kiosk.mode')).toBe('vouchers');
      expect(seen).toEqual(['vouchers']);
    } finally {
      stop();
    }
  });
});
