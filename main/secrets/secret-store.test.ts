import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger.std.ts';
import { kioskKeychain, KeytarSecretStore, SHARED_KEYCHAIN_SERVICE, SECRET_NAMES } from './secret-store.node.ts';
import { runKioskctl } from '../kioskctl/commands.node.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Runs against the real Secret Service started by test/with-keyring.sh (npm test).
const service = `loyalty-kiosk-test-${crypto.randomUUID()}`;
const store = new KeytarSecretStore({ logger: silentLogger, service });

describe('KeytarSecretStore on the real keychain', () => {
  afterEach(async () => {
    for (const name of ['apiKey', 'accessToken', 'personalAccessToken'] as const) await store.remove(name).catch(() => {});
  });

  it('round-trips a secret and reports only whether it is stored', async () => {
    await store.set('apiKey', '  fake-test-round-trip-value  ');
    expect(await store.get('apiKey')).toBe('fake-test-round-trip-value');
    const status = await store.status();
    expect(status).toEqual({ keychain: 'available', stored: { apiKey: true, accessToken: false, personalAccessToken: false, mqttPassword: false } });
    expect(JSON.stringify(status)).not.toContain('fake-test');
    expect(await store.remove('apiKey')).toBe(true);
    expect(await store.get('apiKey')).toBeNull();
  });

  it('refuses an empty secret', async () => {
    await expect(store.set('accessToken', '   ')).rejects.toThrow(/empty/);
  });

  it('says clearly when no keychain is reachable and stores nothing elsewhere', () => {
    // libsecret keeps its D-Bus connection per process, so the unreachable case runs in its own.
    const script = `
      import { KeytarSecretStore } from './main/secrets/secret-store.node.ts';
      import { silentLogger } from './main/logging/logger.std.ts';
      const store = new KeytarSecretStore({ logger: silentLogger, service: '${service}-offline' });
      const stored = await store.set('apiKey', 'x-value').then(() => 'stored', (error) => error.name + ': ' + error.message);
      console.log(JSON.stringify({ stored, status: (await store.status()).keychain }));`;
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', DISPLAY: '' },
    });
    const answer = JSON.parse(result.stdout.trim().split('\n').pop() ?? '{}') as { stored: string; status: string };
    expect(answer.stored).toMatch(/^KeychainUnavailableError: No OS keychain is reachable/);
    expect(answer.status).toBe('unavailable');
  });
});

describe('each kiosk its own keychain entries (#20 §5)', () => {
  const folder = () => fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-keychain-'));
  const storeOf = (dataDir: string) => new KeytarSecretStore({ logger: silentLogger, ...kioskKeychain(dataDir) });
  async function kioskctl(dataDir: string, args: string[], stdin = '') {
    let stdout = '';
    const code = await runKioskctl({ dataDir, args, stdin: { isTTY: !stdin, read: async () => stdin }, stdout: (text) => void (stdout += text), stderr: () => {} });
    return { code, stdout };
  }

  it('keeps two kiosks\' broker passwords apart, and secrets status names the kiosk it reports on', async () => {
    const [a, b] = [folder(), folder()];
    try {
      await expect(kioskctl(a, ['secrets', 'set', 'mqtt-password'], 'fake-password-a')).resolves.toMatchObject({ code: 0 });
      await expect(kioskctl(b, ['secrets', 'set', 'mqtt-password'], 'fake-password-b')).resolves.toMatchObject({ code: 0 });
      expect(await storeOf(a).get('mqttPassword')).toBe('fake-password-a');
      expect(await storeOf(b).get('mqttPassword')).toBe('fake-password-b');
      const { stdout } = await kioskctl(b, ['secrets', 'status']);
      expect(stdout).toMatch(new RegExp(`^kiosk +${b}\n`));
      expect(stdout).toContain(`keychain service  loyalty-kiosk:${b}`);
      expect(stdout).toMatch(/mqtt-password +stored/);
    } finally {
      for (const dir of [a, b]) for (const name of SECRET_NAMES) await storeOf(dir).remove(name);
    }
  });

  it('takes over the entries an older version kept under the shared name, once, keeping its own', async () => {
    const shared = new KeytarSecretStore({ logger: silentLogger, service: `${service}-shared` });
    await shared.set('apiKey', 'fake-shared-key');
    await shared.set('mqttPassword', 'fake-shared-password');
    await shared.bindOrigin('platform', 'https://loyalty.example');
    const own = { service: `${service}-own`, adoptFrom: shared.service };
    await new KeytarSecretStore({ logger: silentLogger, service: own.service }).set('mqttPassword', 'fake-own-password');

    const kiosk = new KeytarSecretStore({ logger: silentLogger, ...own });
    expect(await kiosk.get('apiKey')).toBe('fake-shared-key');
    expect(await kiosk.get('mqttPassword')).toBe('fake-own-password');
    expect(await kiosk.boundOrigin('platform')).toBe('https://loyalty.example');
    // Moved, not copied: the next kiosk to start finds nothing to take.
    expect((await shared.status()).stored).toEqual({ apiKey: false, accessToken: false, personalAccessToken: false, mqttPassword: false });
    expect(await shared.boundOrigin('platform')).toBeNull();
    for (const name of SECRET_NAMES) await kiosk.remove(name);
    await kiosk.bindOrigin('platform', null);
  });

  it('is the shared name only when KIOSK_KEYCHAIN_SERVICE says so', () => {
    const changeMarker = '/srv/kiosk-b/secrets-changed';
    expect(kioskKeychain('/srv/kiosk-b')).toEqual({ service: 'loyalty-kiosk:/srv/kiosk-b', adoptFrom: SHARED_KEYCHAIN_SERVICE, changeMarker });
    expect(kioskKeychain('/srv/kiosk-b', 'loyalty-kiosk')).toEqual({ service: 'loyalty-kiosk', changeMarker });
  });
});

describe('a kiosk reads its keychain once, and again only after a change (#32)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-keychain-cache-'));
  const kiosk = new KeytarSecretStore({ logger: silentLogger, ...kioskKeychain(dataDir) });
  afterEach(async () => {
    for (const name of SECRET_NAMES) await kiosk.remove(name);
  });

  /** Another process writes the entry straight into the keychain, telling nobody (as `secret-tool` would). */
  function writtenBehindItsBack(value: string) {
    const script = `
      import keytar from 'keytar';
      await keytar.setPassword(${JSON.stringify(kiosk.service)}, 'api-key', ${JSON.stringify(value)});`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
  }

  /** The real kioskctl, in its own process, on the kiosk's data folder. */
  function kioskctlSets(value: string) {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'main/kioskctl/kioskctl.node.ts', '--data', dataDir, 'secrets', 'set', 'api-key'], {
      input: value,
      encoding: 'utf8',
    });
    expect(result).toMatchObject({ status: 0, stdout: 'api-key stored in the keychain\n' });
  }

  it('keeps what it read, and learns of kioskctl\'s change, its own, and a refusal', async () => {
    await kiosk.set('apiKey', 'fake-first-key');
    expect(await kiosk.get('apiKey')).toBe('fake-first-key');

    // Held in memory: a change nobody was told of is not read at the next call...
    writtenBehindItsBack('fake-unannounced-key');
    expect(await kiosk.get('apiKey')).toBe('fake-first-key');
    // ...until the platform refuses the key: then it is read again.
    kiosk.forgetReads();
    expect(await kiosk.get('apiKey')).toBe('fake-unannounced-key');

    // kioskctl, in another process, says so by the data folder's marker.
    kioskctlSets('fake-kioskctl-key');
    expect(await kiosk.get('apiKey')).toBe('fake-kioskctl-key');

    // Any store of this process drops what was read when it writes.
    await new KeytarSecretStore({ logger: silentLogger, service: kiosk.service }).set('apiKey', 'fake-own-process-key');
    expect(await kiosk.get('apiKey')).toBe('fake-own-process-key');
    await kiosk.remove('apiKey');
    expect(await kiosk.get('apiKey')).toBeNull();
  });
});
