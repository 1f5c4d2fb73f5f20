import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, ConfigStore } from './config-store.node.ts';
import { checkProvisioning, loadProvisioning, provisioningFilePath, readProvisioning } from './provisioning.node.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { hasEvent, linesOf, recordingLogger } from '../../test/support/factories.std.ts';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-provisioning-'));

function provisioningFile(content: string): string {
  const file = path.join(tempDir(), 'config.json');
  fs.writeFileSync(file, content);
  return file;
}

describe('provisioning file', () => {
  it('lives at the system path for the platform, unless the environment names another', () => {
    expect(provisioningFilePath({}, 'linux')).toBe('/etc/loyalty-kiosk/config.json');
    expect(provisioningFilePath({ ProgramData: 'D:\\Data' }, 'win32')).toBe(path.join('D:\\Data', 'LoyaltyKiosk', 'config.json'));
    expect(provisioningFilePath({ KIOSK_PROVISIONING_FILE: '/srv/kiosk.json' }, 'linux')).toBe('/srv/kiosk.json');
  });

  it('reads the keys it sets as dotted keys', () => {
    const file = provisioningFile(JSON.stringify({ kiosk: { modes: ['vouchers'] }, idle: { timeoutSeconds: 90 }, locale: { enabled: ['en', 'nl', 'de'] } }));
    expect(readProvisioning(file, silentLogger)).toEqual({ 'kiosk.modes': ['vouchers'], 'idle.timeoutSeconds': 90, 'locale.enabled': ['en', 'nl', 'de'] });
  });

  it('reads a file still in the old layout (kiosk.mode) as the one-mode list it means', () => {
    const { logger, lines } = recordingLogger();
    const file = provisioningFile(JSON.stringify({ kiosk: { mode: 'credit-reception' }, idle: { timeoutSeconds: 90 } }));
    expect(readProvisioning(file, logger)).toEqual({ 'kiosk.modes': ['credit-reception'], 'idle.timeoutSeconds': 90 });
    expect(lines).toEqual([]);
  });

  it('sets nothing when missing, and ignores an invalid or misspelt file as a whole, loudly', () => {
    expect(readProvisioning('/nonexistent/kiosk.json', silentLogger)).toEqual({});
    for (const content of ['{not json', JSON.stringify({ kiosk: { modes: ['teleport'] }, idle: { timeoutSeconds: 90 } }), JSON.stringify({ idle: { timeoutSecs: 90 } })]) {
      const { logger, lines } = recordingLogger();
      expect(readProvisioning(provisioningFile(content), logger)).toEqual({});
      expect(hasEvent(lines, 'provisioning.ignored')).toBe(true);
    }
  });

  it('is invalid as a whole when it sends credentials over plain http to another machine', () => {
    const { logger, lines } = recordingLogger();
    const file = provisioningFile(JSON.stringify({ api: { baseUrl: 'http://loyalty.example.com/api' }, kiosk: { modes: ['vouchers'] } }));
    expect(readProvisioning(file, logger)).toEqual({});
    expect(linesOf(lines, 'provisioning.ignored').map(({ fields }) => fields.reason)).toEqual([expect.stringMatching(/api\.baseUrl.*use https/)]);
    for (const baseUrl of ['https://loyalty.example.com/api', 'http://127.0.0.1:8080/api']) {
      expect(readProvisioning(provisioningFile(JSON.stringify({ api: { baseUrl } })), silentLogger)).toEqual({ 'api.baseUrl': baseUrl });
    }
  });

  it('is invalid as a whole when its brand colour cannot carry white text (#34 §5)', () => {
    const { logger, lines } = recordingLogger();
    const file = provisioningFile(JSON.stringify({ brand: { name: 'Corner Shop', color: '#ffd400' }, kiosk: { modes: ['vouchers'] } }));
    expect(readProvisioning(file, logger)).toEqual({});
    expect(linesOf(lines, 'provisioning.ignored').map(({ fields }) => fields.reason)).toEqual([expect.stringMatching(/brand\.color.*contrast 1\.\d:1 with white/)]);
    expect(readProvisioning(provisioningFile(JSON.stringify({ brand: { color: '#7a3e00' } })), silentLogger)).toEqual({ 'brand.color': '#7a3e00' });
  });

  it('wins over the settings file and cannot be changed, while other keys stay free', () => {
    const dir = tempDir();
    new ConfigStore({ dataDir: dir, logger: silentLogger }).set('kiosk.modes', ['regular']);
    const store = new ConfigStore({ dataDir: dir, logger: silentLogger, locked: { 'kiosk.modes': ['vouchers'] } });
    expect(store.getKey('kiosk.modes')).toEqual(['vouchers']);
    expect(store.lockedKeys()).toEqual(['kiosk.modes']);
    expect(() => store.set('kiosk.modes', ['regular'])).toThrow(ConfigError);
    expect(() => store.setMany({ 'idle.timeoutSeconds': 30, 'kiosk.modes': ['regular'] })).toThrow(/provisioning/);
    expect(store.getKey('idle.timeoutSeconds')).toBe(60); // all or nothing
    store.set('idle.timeoutSeconds', 30);
    expect(store.getKey('idle.timeoutSeconds')).toBe(30);
  });

  it('names every problem by its key, not the first only (#35 §4)', () => {
    const text = JSON.stringify({ schedule: { nightlyRestart: '4:30' }, idle: { timeoutSecs: 90 }, kiosk: { modes: ['teleport'] } });
    expect(checkProvisioning(text).problems).toEqual([
      'idle.timeoutSecs: unknown setting',
      expect.stringMatching(/^kiosk\.modes\.0: /),
      expect.stringMatching(/^schedule\.nightlyRestart: /),
    ]);
    expect(checkProvisioning('{"idle":').problems).toEqual([expect.stringMatching(/^not JSON: /)]);
    expect(checkProvisioning('[1]').problems).toEqual(['not a JSON object of settings']);
  });

  it('keeps only the fleet section of an invalid file, when that section is valid on its own, so the kiosk can say so on its broker (#35 §4)', () => {
    const fleet = { mqtt: { url: 'mqtt://127.0.0.1:1883', username: 'store-1' }, kioskId: 'store-1' };
    const { logger, lines } = recordingLogger();
    const file = provisioningFile(JSON.stringify({ fleet, schedule: { nightlyRestart: '4:30' }, idle: { timeoutSeconds: 90 } }));
    const loaded = loadProvisioning(file, logger);
    expect(loaded.locked).toEqual({ 'fleet.mqtt.url': 'mqtt://127.0.0.1:1883', 'fleet.mqtt.username': 'store-1', 'fleet.kioskId': 'store-1' });
    expect(loaded.problems).toEqual([expect.stringMatching(/^schedule\.nightlyRestart: /)]);
    expect(linesOf(lines, 'provisioning.ignored').map(({ fields }) => fields.kept)).toEqual([Object.keys(loaded.locked)]);
    // A fleet section that is itself wrong keeps nothing.
    expect(checkProvisioning(JSON.stringify({ fleet: { mqtt: { url: 'ftp://x' } }, idle: { timeoutSecs: 1 } })).locked).toEqual({});
  });
});
