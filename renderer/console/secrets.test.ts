import { beforeAll, describe, expect, it } from 'vitest';
import type { ManagerStatus } from '../../common/manager-views.std.ts';
import { i18n } from '../i18n/i18n.svelte';
import { FakeBridge, ok, refused } from '../fake-bridge.test-support.ts';
import { Secrets } from './secrets.svelte.ts';
import { managerStatus } from '../../test/support/factories.std.ts';

beforeAll(() => i18n.loadCatalogue('console'));

const NONE_STORED = { apiKey: false, accessToken: false, personalAccessToken: false, mqttPassword: false };
const UNLOCKED: ManagerStatus = managerStatus();

function secretsWith() {
  const bridge = new FakeBridge({
    setSecret: ok('setSecret', { keychain: 'available', stored: { ...NONE_STORED, apiKey: true } }),
    removeSecret: ok('removeSecret', { keychain: 'available', stored: NONE_STORED }),
    setManagerPin: ok('setManagerPin', UNLOCKED),
  });
  return { bridge, secrets: new Secrets({ bridge: bridge.api, call: (run) => run() }) };
}

describe('the secrets', () => {
  it('stores and removes a secret, answering what the keychain holds then', async () => {
    const { bridge, secrets } = secretsWith();
    const storing = secrets.store('apiKey', 'key');
    expect(secrets.busy).toBe(true);
    expect((await storing)?.stored.apiKey).toBe(true);
    expect((await secrets.remove('apiKey'))?.stored.apiKey).toBe(false);
    expect(bridge.calls).toEqual([
      { name: 'setSecret', input: { name: 'apiKey', value: 'key' } },
      { name: 'removeSecret', input: { name: 'apiKey' } },
    ]);
    expect(secrets).toMatchObject({ busy: false, problem: null });
  });

  it('answers null with the problem when the keychain cannot be written, and forgets it after the next success', async () => {
    const { bridge, secrets } = secretsWith();
    bridge.answer('setSecret', refused('unavailable', 'no keychain'));
    expect(await secrets.store('apiKey', 'key')).toBeNull();
    expect(secrets.problem).toBe(i18n.t('console.problem.unavailable', { message: 'no keychain' }));
    await secrets.store('apiKey', 'key');
    expect(secrets.problem).toBeNull();
  });

  it('sets the PIN through the console, answering the unlocked status', async () => {
    const { bridge } = secretsWith();
    const through: string[] = [];
    const secrets = new Secrets({ bridge: bridge.api, call: (run) => (through.push('console'), run()) });
    expect(await secrets.setPin('2468')).toEqual(UNLOCKED);
    expect(bridge.inputsOf('setManagerPin')).toEqual([{ pin: '2468' }]);
    expect(through).toEqual(['console']);
  });
});
