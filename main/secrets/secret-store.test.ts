import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger.std.ts';
import { KeytarSecretStore } from './secret-store.node.ts';

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
