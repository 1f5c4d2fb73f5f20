import { beforeAll, describe, expect, it } from 'vitest';
import { KioskConfig } from '../../common/config-schema.std.ts';
import type { ConsoleSettings } from '../../common/manager-views.std.ts';
import { i18n } from '../i18n/i18n.svelte';
import { Connection } from './connection.svelte.ts';
import { FakeBridge, ok, refused } from '../fake-bridge.test-support.ts';

beforeAll(() => i18n.loadCatalogue('console'));

const BASE_URL = 'https://api.example.com';
const SHOP = '6f1c2b4a-1d2e-4f3a-9b8c-7d6e5f4a3b2c';
const NONE_STORED = { apiKey: false, accessToken: false, personalAccessToken: false, mqttPassword: false };
const SETTINGS: ConsoleSettings = {
  demo: false,
  config: KioskConfig.omit({ manager: true }).parse({ api: { baseUrl: BASE_URL, shopUuid: SHOP } }),
  lockedKeys: [],
  secrets: { keychain: 'available', stored: NONE_STORED },
};
const CHECKED = { ok: true, checks: [{ name: 'shop', ok: true, detail: 'Corner Shop' }] };

function connectionWith() {
  const bridge = new FakeBridge({
    testConnection: ok('testConnection', CHECKED),
    updateSettings: ok('updateSettings', SETTINGS),
    setSecret: ok('setSecret', { keychain: 'available', stored: { ...NONE_STORED, apiKey: true } }),
  });
  return { bridge, connection: new Connection({ bridge: bridge.api, call: (run) => run() }) };
}

describe('the connection', () => {
  it('is busy while main tests it, and answers its check; a failed test is the failure, and no check', async () => {
    const { bridge, connection } = connectionWith();
    const testing = connection.test({ baseUrl: BASE_URL, apiKey: 'key', shopUuid: SHOP });
    expect(connection.busy).toBe(true);
    expect(await testing).toEqual(CHECKED);
    expect(connection).toMatchObject({ busy: false, failure: null });

    bridge.answer('testConnection', refused('network'));
    expect(await connection.test({ baseUrl: BASE_URL })).toBeNull();
    expect(connection.failure).toBe(i18n.t('console.problem.connection'));
  });

  it('saves the URL before the secrets, skips what is provisioned, and answers the settings with the secrets stored', async () => {
    const { bridge, connection } = connectionWith();
    const saved = await connection.connect({ baseUrl: BASE_URL, shopUuid: SHOP, secrets: { apiKey: 'key' } }, ['api.shopUuid']);
    expect(bridge.names()).toEqual(['updateSettings', 'setSecret']);
    expect(bridge.inputsOf('updateSettings')).toEqual([{ values: { 'api.baseUrl': BASE_URL } }]);
    expect(bridge.inputsOf('setSecret')).toEqual([{ name: 'apiKey', value: 'key' }]);
    expect(saved?.secrets.stored.apiKey).toBe(true);
  });

  it('stays busy from the URL to the last secret, and stops at the first refusal', async () => {
    const { bridge, connection } = connectionWith();
    const secret = bridge.hold('setSecret');
    const saving = connection.connect({ baseUrl: BASE_URL, shopUuid: SHOP, secrets: { apiKey: 'key', accessToken: 'token' } }, []);
    await expect.poll(() => bridge.names()).toEqual(['updateSettings', 'setSecret']);
    expect(connection.busy).toBe(true);
    secret.release(refused('unavailable', 'the keychain is locked'));
    expect(await saving).toBeNull();
    expect(bridge.names()).toEqual(['updateSettings', 'setSecret']);
    expect(connection).toMatchObject({ busy: false, failure: i18n.t('console.problem.unavailable', { message: 'the keychain is locked' }) });
  });
});
