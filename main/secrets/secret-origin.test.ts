import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/sandbox.node.ts';
import { startKioskServices, type KioskServices } from '../kiosk-services.node.ts';
import { runKioskctl } from '../kioskctl/commands.node.ts';
import { runDoctor } from '../diagnostics/doctor.node.ts';
import { BridgeConnection } from '../bridge/dispatcher.std.ts';
import { MANAGER_CALL_SAMPLES } from '../bridge/manager-call-samples.test-support.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { hashPin } from '../manager/pin-hash.node.ts';
import { brokerPasswordFor, originOf } from './secret-origin.node.ts';
import { KeytarSecretStore, SECRET_NAMES } from './secret-store.node.ts';
import { kioskEvents } from '../../test/support/kiosk-journey.node.ts';

/**
 * Secrets stored for one platform origin are never sent to another: a connected kiosk (a real
 * sandbox as its platform, its credentials in the real keychain) next to a second loopback server
 * that records every request it hears, so the test sees whether a key reached it.
 */
interface RecordingServer {
  baseUrl: string;
  origin: string;
  /** Each request heard: its URL and every header, as text. */
  heard: string[];
  close(): Promise<void>;
}

async function recordingServer(): Promise<RecordingServer> {
  const heard: string[] = [];
  const server = http.createServer((request, response) => {
    heard.push(`${request.url} ${JSON.stringify(request.headers)}`);
    response.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Unauthenticated."}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { baseUrl: `${origin}/api`, origin, heard, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const keychainService = `loyalty-kiosk-test-${crypto.randomUUID()}`;
const secrets = new KeytarSecretStore({ logger: silentLogger, service: keychainService });
let platform: RunningSandbox;
let elsewhere: RecordingServer;
let credentials: Record<'apiKey' | 'accessToken' | 'personalAccessToken', string>;
const running: KioskServices[] = [];

beforeAll(async () => {
  platform = await startSandbox({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'origin-platform-')), port: 0 });
  const { api_key, access_token, personal_access_token } = platform.manifest.credentials;
  credentials = { apiKey: api_key, accessToken: access_token, personalAccessToken: personal_access_token };
  elsewhere = await recordingServer();
});

afterAll(async () => {
  await platform?.close();
  await elsewhere?.close();
});

afterEach(async () => {
  for (const services of running.splice(0)) await services.close();
  for (const name of SECRET_NAMES) await secrets.remove(name).catch(() => {});
  await secrets.bindOrigin('platform', null).catch(() => {});
  await secrets.bindOrigin('broker', null).catch(() => {});
  elsewhere.heard.length = 0;
});

/** A kiosk connected to `baseUrl`, with the platform's credentials stored as an admin would (before or after the URL). */
async function connectedKiosk(baseUrl = platform.baseUrl) {
  for (const [name, value] of Object.entries(credentials)) await secrets.set(name as keyof typeof credentials, value);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'origin-kiosk-'));
  fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ api: { baseUrl, shopUuid: platform.manifest.shops[0]!.uuid }, manager: { pinHash: await hashPin('2580') } }));
  const services = await startKioskServices({ dataDir, version: 'test', keychainService });
  running.push(services);
  const call = (name: string, input: unknown = {}) => services.dispatch(name, input, manager) as Promise<{ ok: boolean; value?: any; error?: any }>;
  // A connected kiosk without a PIN stays locked: its PIN hash is on file, as kioskctl pin set leaves it.
  await call('unlockManager', { pin: '2580' });
  return { services, call, dataDir };
}

const shopper = new BridgeConnection('shopper');
const manager = new BridgeConnection('console');

const heardAnySecret = () => elsewhere.heard.some((request) => Object.values(credentials).some((secret) => request.includes(secret)));
const log = (services: KioskServices) => fs.readFileSync(services.logSink.file, 'utf8');
const NOTHING_STORED = { apiKey: false, accessToken: false, personalAccessToken: false, mqttPassword: false };

/**
 * A demo kiosk's first run on `dataDir` with its keychain unreadable (no session bus, as at boot
 * before the keyring is up): its wizard's status, then the PIN set from it. In a process of its
 * own, as libsecret keeps its D-Bus connection per process; from a file, not `--input-type=module`,
 * which the watchdog's worker would inherit.
 */
async function firstRunWithoutKeychain(dataDir: string, pin: string): Promise<{ status: unknown; set: unknown }> {
  const script = path.join(dataDir, '..', `${path.basename(dataDir)}-first-run.mts`);
  fs.writeFileSync(
    script,
    `import { startKioskServices } from ${JSON.stringify(path.resolve('main/kiosk-services.node.ts'))};
    import { BridgeConnection } from ${JSON.stringify(path.resolve('main/bridge/dispatcher.std.ts'))};
    import { setupCode } from ${JSON.stringify(path.resolve('main/manager/setup-code.node.ts'))};
    const services = await startKioskServices({ dataDir: ${JSON.stringify(dataDir)}, version: 'test', keychainService: '${keychainService}' });
    const wizard = new BridgeConnection('wizard');
    const status = await services.dispatch('managerStatus', {}, wizard);
    await services.dispatch('startSetup', { code: setupCode(${JSON.stringify(dataDir)}) }, wizard);
    await services.dispatch('getConsoleSettings', {}, wizard);
    const set = await services.dispatch('setManagerPin', { pin: '${pin}' }, wizard);
    await services.close();
    console.log(JSON.stringify({ status, set }));`,
  );
  const stdout = await new Promise<string>((resolve) => {
    const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', DISPLAY: '' };
    execFile(process.execPath, ['--import', 'tsx', script], { env }, (_error, output) => resolve(output));
  });
  fs.rmSync(script);
  return JSON.parse(stdout.trim().split('\n').pop() || '{}') as { status: unknown; set: unknown };
}

describe('secrets bound to their platform origin', () => {
  it('binds secrets stored before the URL to the configured origin, and uses them there', async () => {
    const { call, services } = await connectedKiosk();
    await expect(services.dispatch('getServiceStatus', {}, shopper)).resolves.toMatchObject({ ok: true });
    expect(await secrets.boundOrigin('platform')).toBe(new URL(platform.baseUrl).origin);
    await expect(call('testConnection', { baseUrl: platform.baseUrl })).resolves.toMatchObject({ ok: true, value: { ok: true } });
  });

  it('never sends the stored key to another origin when a connection is tested without a new one', async () => {
    const { call } = await connectedKiosk();
    const tested = await call('testConnection', { baseUrl: elsewhere.baseUrl });
    expect(tested).toMatchObject({ ok: true, value: { ok: false } });
    expect(heardAnySecret()).toBe(false);
    // A key typed for that test does go there: it is the manager's to send.
    await call('testConnection', { baseUrl: elsewhere.baseUrl, apiKey: 'fake-typed-for-elsewhere' });
    expect(elsewhere.heard.some((request) => request.includes('fake-typed-for-elsewhere'))).toBe(true);
  });

  it('keeps the fleet broker\'s password when the platform origin changes: it belongs to no platform', async () => {
    await secrets.set('mqttPassword', 'fake-broker-password');
    const { call } = await connectedKiosk();
    const changed = await call('updateSettings', { values: { 'api.baseUrl': elsewhere.baseUrl } });
    expect(changed).toMatchObject({ ok: true, value: { secrets: { stored: { ...NOTHING_STORED, mqttPassword: true } } } });
    expect(await secrets.get('mqttPassword')).toBe('fake-broker-password');
  });

  it('removes the stored secrets when the console moves the kiosk to another origin, and shows and logs it', async () => {
    const { call, services } = await connectedKiosk();
    const changed = await call('updateSettings', { values: { 'api.baseUrl': elsewhere.baseUrl } });
    expect(changed).toMatchObject({ ok: true, value: { secrets: { stored: NOTHING_STORED } } });
    for (const name of SECRET_NAMES) expect(await secrets.get(name)).toBeNull();
    expect(await secrets.boundOrigin('platform')).toBeNull();
    expect(kioskEvents(services.dataDir, 'secrets.removed')).toEqual([expect.objectContaining({ binding: 'platform' })]);
    // The kiosk's own calls to the new platform carry nothing of the old one's.
    await call('getDiagnostics');
    expect(heardAnySecret()).toBe(false);
    // Secrets entered now are the new origin's.
    await call('setSecret', { name: 'apiKey', value: 'fake-key-for-elsewhere' });
    expect(await secrets.boundOrigin('platform')).toBe(elsewhere.origin);
    for (const secret of Object.values(credentials)) expect(log(services)).not.toContain(secret);
  });

  it('keeps them for another path on the same origin', async () => {
    const { call } = await connectedKiosk();
    const changed = await call('updateSettings', { values: { 'api.baseUrl': `${platform.baseUrl}/v2` } });
    expect(changed.value.secrets.stored).toEqual({ apiKey: true, accessToken: true, personalAccessToken: true, mqttPassword: false });
  });

  it('removes them when config.json is edited to another origin while the kiosk runs', async () => {
    const { services, dataDir } = await connectedKiosk();
    const file = path.join(dataDir, 'config.json');
    const edited = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, JSON.stringify({ ...edited, api: { ...edited.api, baseUrl: elsewhere.baseUrl } }));
    await expect.poll(async () => (await secrets.status()).stored, { timeout: 5_000 }).toEqual(NOTHING_STORED);
    await expect.poll(() => kioskEvents(services.dataDir, 'secrets.removed').map((line) => line.binding)).toContain('platform');
  });

  it('removes them when kioskctl sets another origin, and says so', async () => {
    const { dataDir } = await connectedKiosk();
    for (const services of running.splice(0)) await services.close();
    const output: string[] = [];
    const exit = await runKioskctl({
      dataDir,
      args: ['config', 'set', 'api.baseUrl', elsewhere.baseUrl],
      keychainService,
      stdin: { isTTY: true, read: async () => '' },
      stdout: (text) => void output.push(text),
      stderr: (text) => void output.push(text),
    });
    expect(exit).toBe(0);
    expect(output.join('')).toContain('stored secrets removed');
    expect((await secrets.status()).stored).toEqual(NOTHING_STORED);
  });

  it('removes them before the first call when the kiosk starts configured for another origin (provisioning, an offline edit)', async () => {
    await secrets.bindOrigin('platform', new URL(platform.baseUrl).origin);
    const { services } = await connectedKiosk(elsewhere.baseUrl);
    await services.dispatch('getServiceStatus', {}, shopper);
    expect(heardAnySecret()).toBe(false);
    expect((await secrets.status()).stored).toEqual(NOTHING_STORED);
  });

  it('keeps what an admin stored before any address when a demo kiosk started without its keychain, and the PIN set at its screen opens the demo\'s console only (#28 §5)', async () => {
    for (const [name, value] of Object.entries(credentials)) await secrets.set(name as keyof typeof credentials, value);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'origin-unreadable-'));
    // At boot, before the keyring is up: the screen offers the demo's wizard, and whoever is there sets a PIN.
    await expect(firstRunWithoutKeychain(dataDir, '2580')).resolves.toMatchObject({
      status: { ok: true, value: { pinSet: false, setupDemoOnly: true } },
      set: { ok: true, value: { pinSet: true, unlocked: true, setupDemoOnly: true } },
    });

    // The keychain is back: nothing in it is removed for having been unreadable.
    const services = await startKioskServices({ dataDir, version: 'test', keychainService });
    running.push(services);
    const call = (name: string, input: unknown = {}) => services.dispatch(name, input, manager) as Promise<{ ok: boolean; value?: any; error?: any }>;
    await services.dispatch('getServiceStatus', {}, shopper);
    expect((await secrets.status()).stored).toEqual({ ...NOTHING_STORED, apiKey: true, accessToken: true, personalAccessToken: true });
    expect(kioskEvents(services.dataDir, 'secrets.removed')).toEqual([]);

    // The PIN chosen at the screen opens the demo's console, nothing more.
    await expect(call('unlockManager', { pin: '2580' })).resolves.toMatchObject({ ok: true, value: { unlocked: true, setupDemoOnly: true } });
    for (const [name, payload] of Object.entries(MANAGER_CALL_SAMPLES)) {
      const answer = await call(name, payload);
      if (name === 'getConsoleSettings' || name === 'setManagerPin') expect(answer, name).toMatchObject({ ok: true });
      else expect(answer, name).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringMatching(/kioskctl pin set/) } });
    }
    await expect(call('updateSettings', { values: { 'api.baseUrl': elsewhere.baseUrl } })).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(services.config.get().api.baseUrl).toBeNull();
    expect((await secrets.status()).stored.apiKey).toBe(true);

    // The admin's PIN ends that session and opens the whole console; the secrets go to the admin's address.
    const exit = await runKioskctl({ dataDir, args: ['pin', 'set'], stdin: { isTTY: false, read: async () => '9999' }, stdout: () => {}, stderr: () => {} });
    expect(exit).toBe(0);
    await expect(call('getConsoleSettings')).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await expect(call('unlockManager', { pin: '9999' })).resolves.toMatchObject({ ok: true, value: { unlocked: true, setupDemoOnly: false } });
    const connected = await call('updateSettings', { values: { 'api.baseUrl': platform.baseUrl, 'api.shopUuid': platform.manifest.shops[0]!.uuid } });
    expect(connected).toMatchObject({ ok: true, value: { secrets: { stored: { apiKey: true, accessToken: true, personalAccessToken: true } } } });
    expect(await secrets.boundOrigin('platform')).toBe(new URL(platform.baseUrl).origin);
    await expect(services.dispatch('getServiceStatus', {}, shopper)).resolves.toMatchObject({ ok: true });
    expect(heardAnySecret()).toBe(false);
    // A first run in a process of its own (its modules loaded afresh) takes several seconds.
  }, 60_000);

  it('kioskctl doctor leaves secrets not yet bound as they are: binding is for the kiosk to do at start', async () => {
    for (const [name, value] of Object.entries(credentials)) await secrets.set(name as keyof typeof credentials, value);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'origin-doctor-look-'));
    fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ api: { baseUrl: platform.baseUrl, shopUuid: platform.manifest.shops[0]!.uuid } }));
    const checks = await runDoctor({ dataDir, logger: silentLogger, secrets });
    expect(checks.find((check) => check.name === 'api')).toMatchObject({ status: 'OK' });
    expect(await secrets.boundOrigin('platform')).toBeNull();
  });

  it('kioskctl doctor sends no secret to a platform they were not stored for, and says why', async () => {
    for (const [name, value] of Object.entries(credentials)) await secrets.set(name as keyof typeof credentials, value);
    await secrets.bindOrigin('platform', new URL(platform.baseUrl).origin);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'origin-doctor-'));
    fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ api: { baseUrl: elsewhere.baseUrl, shopUuid: platform.manifest.shops[0]!.uuid } }));
    const checks = await runDoctor({ dataDir, logger: silentLogger, secrets });
    expect(checks.find((check) => check.name === 'credentials')).toMatchObject({ status: 'FAIL', detail: expect.stringContaining(`stored for ${new URL(platform.baseUrl).origin}`) });
    expect(heardAnySecret()).toBe(false);
  });
});

describe('the broker password bound to its broker (#20 §2)', () => {
  const brokerA = 'mqtt://127.0.0.1:18830';
  const kioskctl = async (dataDir: string, args: string[], stdin = '') => {
    const output: string[] = [];
    const exit = await runKioskctl({
      dataDir,
      args,
      keychainService,
      stdin: { isTTY: !stdin, read: async () => stdin },
      stdout: (text) => void output.push(text),
      stderr: (text) => void output.push(text),
    });
    return { exit, output: output.join('') };
  };
  const fleetKiosk = (url: string) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'origin-broker-'));
    fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ fleet: { mqtt: { url, username: 'kiosk' } } }));
    return dataDir;
  };

  it('is stored for the configured broker, kept for another path or user there, and removed by kioskctl moving the broker', async () => {
    const dataDir = fleetKiosk(brokerA);
    await expect(kioskctl(dataDir, ['secrets', 'set', 'mqtt-password'], 'fake-broker-password')).resolves.toMatchObject({ exit: 0 });
    expect(await secrets.boundOrigin('broker')).toBe(brokerA);
    expect(await brokerPasswordFor(secrets, originOf('mqtt://someone@127.0.0.1:18830/'))).toEqual({ password: 'fake-broker-password', needed: false });
    // Another port is another broker: the password is not handed out for it.
    expect(await brokerPasswordFor(secrets, originOf('mqtt://127.0.0.1:18831'))).toEqual({ password: null, needed: true });

    const moved = await kioskctl(dataDir, ['config', 'set', 'fleet.mqtt.url', 'mqtt://127.0.0.1:18831']);
    expect(moved.output).toContain('mqtt-password removed: it was for another broker; store the password for mqtt://127.0.0.1:18831');
    expect(await secrets.get('mqttPassword')).toBeNull();
    // The kiosk waits for the new broker's password: it does not connect without one.
    expect(await brokerPasswordFor(secrets, 'mqtt://127.0.0.1:18831')).toEqual({ password: null, needed: true });
    // The platform's secrets are another binding: untouched.
    expect(await secrets.boundOrigin('platform')).toBeNull();
  });

  it('kioskctl doctor sends no password to a broker it was not stored for, and says why', async () => {
    await secrets.set('mqttPassword', 'fake-broker-password');
    await secrets.bindOrigin('broker', brokerA);
    const checks = await runDoctor({ dataDir: fleetKiosk(`mqtt://127.0.0.1:${new URL(elsewhere.origin).port}`), logger: silentLogger, secrets });
    expect(checks.find((check) => check.name === 'broker')).toMatchObject({ status: 'FAIL', detail: expect.stringContaining('the one stored was for another broker') });
    expect(elsewhere.heard).toEqual([]);
  });
});
