import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startKioskServices, type KioskServices } from '../kiosk-services.node.ts';
import { KeytarSecretStore, SECRET_NAMES } from '../secrets/secret-store.node.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { BridgeConnection } from '../bridge/dispatcher.std.ts';
import { MANAGER_CALL_SAMPLES } from '../bridge/manager-call-samples.test-support.ts';

// Every call of the contract's manager table, on real demo services: a new call is walked by being there.
const keychainService = `loyalty-kiosk-test-${crypto.randomUUID()}`;
const running: KioskServices[] = [];
const hostCalls = { restart: 0, quit: 0 };

async function kiosk(config?: object) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-gate-'));
  if (config) fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify(config));
  const host = { restart: () => void hostCalls.restart++, quit: () => void hostCalls.quit++ };
  const services = await startKioskServices({ dataDir, version: 'test', keychainService, host });
  running.push(services);
  return services;
}

/** Each manager call's answer, by name, as `connection` gets it. */
async function answersTo(services: KioskServices, connection: BridgeConnection) {
  const answers: Record<string, unknown> = {};
  for (const [call, payload] of Object.entries(MANAGER_CALL_SAMPLES)) answers[call] = await services.dispatch(call, payload, connection);
  return answers;
}

const everyCall = (answer: unknown) => Object.fromEntries(Object.keys(MANAGER_CALL_SAMPLES).map((call) => [call, answer]));

afterEach(async () => {
  for (const services of running.splice(0)) await services.close();
  const secrets = new KeytarSecretStore({ logger: silentLogger, service: keychainService });
  for (const name of SECRET_NAMES) await secrets.remove(name).catch(() => {});
});

describe('console gate on every manager call', () => {
  it('refuses each one while the console is locked, and none of them does anything', async () => {
    const services = await kiosk();
    const manager = new BridgeConnection('manager');
    await services.dispatch('setManagerPin', { pin: '2580' }, manager);
    await services.dispatch('lockManager', {}, manager);
    const before = services.config.get();

    for (const connection of [manager, new BridgeConnection('another window')]) {
      const locked = { ok: false, error: { code: 'forbidden', message: 'the console is locked' } };
      expect(await answersTo(services, connection)).toEqual(everyCall(locked));
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(hostCalls).toEqual({ restart: 0, quit: 0 });
    expect(services.config.get()).toEqual(before);
    expect((await services.secrets.status()).stored).toMatchObject({ apiKey: false });
  });

  it('refuses each one on a kiosk with no PIN but a platform address, saying how to set one', async () => {
    const services = await kiosk({ api: { baseUrl: 'http://127.0.0.1:9/api' } });
    const blocked = { ok: false, error: { code: 'forbidden', message: expect.stringMatching(/kioskctl pin set/) } };
    expect(await answersTo(services, new BridgeConnection('console'))).toEqual(everyCall(blocked));
    expect(services.config.get().manager.pinHash).toBeNull();
  });
});
