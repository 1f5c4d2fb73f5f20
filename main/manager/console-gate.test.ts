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
import { runKioskctl } from '../kioskctl/commands.node.ts';
import { verifyPin } from './pin-hash.node.ts';
import { setupCode } from './setup-code.node.ts';

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

/** The wizard's setup session, opened with the setup code as IT would give it (#34 §2). */
const openWizard = (services: KioskServices, wizard: BridgeConnection) => services.dispatch('startSetup', { code: setupCode(services.dataDir) }, wizard);

const everyCall = (answer: unknown) => Object.fromEntries(Object.keys(MANAGER_CALL_SAMPLES).map((call) => [call, answer]));

afterEach(async () => {
  for (const services of running.splice(0)) await services.close();
  const secrets = new KeytarSecretStore({ logger: silentLogger, service: keychainService });
  for (const name of SECRET_NAMES) await secrets.remove(name).catch(() => {});
});

describe('a setup code IT chose (#34 §2)', () => {
  it('opens the wizard with the provisioned code, never with the one the data folder would make', async () => {
    const services = await kiosk({ manager: { setupCode: '24681357' } });
    const stranger = new BridgeConnection('stranger');
    const randomCode = setupCode(services.dataDir);
    expect(randomCode).not.toBe('24681357');
    await expect(services.dispatch('startSetup', { code: randomCode }, stranger)).resolves.toMatchObject({ ok: true, value: { unlocked: false } });
    const it_ = new BridgeConnection('it');
    await expect(services.dispatch('startSetup', { code: '24681357' }, it_)).resolves.toMatchObject({ ok: true, value: { unlocked: true } });
  });
});

describe('console gate on every manager call', () => {
  it('refuses each one while the console is locked, and none of them does anything', async () => {
    const services = await kiosk();
    const manager = new BridgeConnection('manager');
    await openWizard(services, manager);
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

describe('a first run\'s wizard session ends once a PIN exists (#28 §4)', () => {
  const locked = { ok: false, error: { code: 'forbidden', message: 'the console is locked' } };
  const pinIs = (services: KioskServices, pin: string) => verifyPin(pin, services.config.get().manager.pinHash ?? '');

  it('refuses each call of a wizard opened before kioskctl pin set, the very next moment: it neither replaces the PIN nor changes a setting', async () => {
    const services = await kiosk();
    const wizard = new BridgeConnection('wizard');
    await openWizard(services, wizard);
    await expect(services.dispatch('getConsoleSettings', {}, wizard)).resolves.toMatchObject({ ok: true });
    // The admin's PIN, written to config.json by kioskctl's own settings store (as from another process).
    const exit = await runKioskctl({ dataDir: services.dataDir, args: ['pin', 'set'], stdin: { isTTY: false, read: async () => '9999' }, stdout: () => {}, stderr: () => {} });
    expect(exit).toBe(0);

    const settingsFile = path.join(services.dataDir, 'config.json');
    const written = fs.readFileSync(settingsFile, 'utf8');
    expect(await answersTo(services, wizard)).toEqual(everyCall(locked));
    await expect(services.dispatch('managerStatus', {}, wizard)).resolves.toMatchObject({ ok: true, value: { pinSet: true, unlocked: false } });
    await expect(pinIs(services, '9999')).resolves.toBe(true);
    expect(fs.readFileSync(settingsFile, 'utf8')).toBe(written);
    expect(hostCalls).toEqual({ restart: 0, quit: 0 });
  });

  it('ends a second wizard beside the first when the first sets the PIN: the second can neither replace it nor move api.baseUrl', async () => {
    const services = await kiosk();
    const [first, second] = [new BridgeConnection('first tab'), new BridgeConnection('second tab')];
    for (const wizard of [first, second]) await expect(openWizard(services, wizard)).resolves.toMatchObject({ ok: true, value: { unlocked: true } });
    await expect(services.dispatch('setManagerPin', { pin: '2580' }, first)).resolves.toMatchObject({ ok: true, value: { pinSet: true, unlocked: true } });

    await expect(services.dispatch('updateSettings', { values: { 'api.baseUrl': 'https://attacker.example/api' } }, second)).resolves.toEqual(locked);
    expect(await answersTo(services, second)).toEqual(everyCall(locked));
    await expect(pinIs(services, '2580')).resolves.toBe(true);
    expect(services.config.get().api.baseUrl).toBeNull();
    // The wizard that set the PIN goes on under it.
    await expect(services.dispatch('getConsoleSettings', {}, first)).resolves.toMatchObject({ ok: true });
  });

  it('sets one PIN when two wizards set theirs at the same moment: the other is refused', async () => {
    const services = await kiosk();
    const wizards = [new BridgeConnection('first tab'), new BridgeConnection('second tab')];
    for (const wizard of wizards) await openWizard(services, wizard);
    const answers = await Promise.all(wizards.map((wizard, index) => services.dispatch('setManagerPin', { pin: `${index + 1}`.repeat(4) }, wizard)));
    const set = answers.flatMap((answer, index) => (answer.ok ? [`${index + 1}`.repeat(4)] : []));
    expect(set).toHaveLength(1);
    expect(answers.filter((answer) => !answer.ok)).toEqual([locked]);
    await expect(pinIs(services, set[0]!)).resolves.toBe(true);
  });

  describe('a wizard left before its PIN leaves the kiosk as it was (#34 §2)', () => {
    const connect = async (services: KioskServices, wizard: BridgeConnection) => {
      await openWizard(services, wizard);
      await expect(services.dispatch('updateSettings', { values: { 'api.baseUrl': 'https://platform.example/api' } }, wizard)).resolves.toMatchObject({ ok: true });
      await expect(services.dispatch('setSecret', { name: 'apiKey', value: 'k'.repeat(56) }, wizard)).resolves.toMatchObject({ ok: true });
      expect(services.config.get().manager.setupUnfinished).toBe(true);
    };
    const backToDemo = async (services: KioskServices, wizard: BridgeConnection) => {
      // The next look at the console finds a fresh kiosk: the wizard, not a pad that asks for kioskctl.
      await expect(services.dispatch('managerStatus', {}, wizard)).resolves.toMatchObject({ ok: true, value: { pinSet: false, setupBlocked: null } });
      expect(services.config.get().api).toMatchObject({ baseUrl: null, shopUuid: null });
      expect(services.config.get().manager.setupUnfinished).toBe(false);
      expect(Object.values((await services.secrets.status()).stored).some(Boolean)).toBe(false);
    };

    it('Cancel after connecting: the connection and its key are gone, and the wizard opens again', async () => {
      const services = await kiosk();
      const wizard = new BridgeConnection('wizard');
      await connect(services, wizard);
      await expect(services.dispatch('lockManager', {}, wizard)).resolves.toMatchObject({ ok: true });
      await backToDemo(services, wizard);
      await expect(openWizard(services, wizard)).resolves.toMatchObject({ ok: true, value: { unlocked: true } });
    });

    it('a wizard cut short (the kiosk restarted) is undone at the next start; a PIN set ends the undoing', async () => {
      const first = await kiosk();
      await connect(first, new BridgeConnection('wizard'));
      await first.close();
      running.splice(running.indexOf(first), 1);
      const dataDir = first.dataDir;
      const again = await startKioskServices({ dataDir, version: 'test', keychainService, host: { restart: () => {}, quit: () => {} } });
      running.push(again);
      await backToDemo(again, new BridgeConnection('after the restart'));

      const finished = new BridgeConnection('finished wizard');
      await connect(again, finished);
      await expect(again.dispatch('setManagerPin', { pin: '2580' }, finished)).resolves.toMatchObject({ ok: true });
      await expect(again.dispatch('lockManager', {}, finished)).resolves.toMatchObject({ ok: true });
      await expect(again.dispatch('managerStatus', {}, finished)).resolves.toMatchObject({ ok: true, value: { pinSet: true } });
      expect(again.config.get().api.baseUrl).toBe('https://platform.example/api');
      expect((await again.secrets.status()).stored).toMatchObject({ apiKey: true });
    });
  });
});
