import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextMessage as nextOn, startMosquitto, type Mosquitto } from '../test/support/mosquitto.node.ts';
import { BridgeConnection } from './bridge/dispatcher.std.ts';
import { FleetHealth } from './fleet/fleet-messages.std.ts';
import { startKioskServices, type KioskServices } from './kiosk-services.node.ts';
import { silentLogger } from './logging/logger.std.ts';
import { hashPin } from './manager/pin-hash.node.ts';
import { FakeBrowserWindow } from './electron/fake-electron.test-support.ts';
import { windowCommands } from './electron/window-commands.main.ts';
import { KeytarSecretStore, SECRET_NAMES } from './secrets/secret-store.node.ts';
import { kioskEvents } from '../test/support/kiosk-journey.node.ts';
import { discoveryProblems } from '../test/support/home-assistant-discovery.std.ts';
import { discoveryMessages } from './fleet/home-assistant.std.ts';

/** A TCP listener posing as a broker: it answers nothing and keeps every byte it hears, as text. */
async function recordingListener(): Promise<{ port: number; heard(): string; close(): Promise<void> }> {
  const chunks: Buffer[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    heard: () => Buffer.concat(chunks).toString('latin1'),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The kiosk's own services on a fleet broker: started by the config, with the keychain's password. */
describe('kiosk services on a fleet broker', () => {
  const keychainService = `loyalty-kiosk-test-${crypto.randomUUID()}`;
  const secrets = new KeytarSecretStore({ logger: silentLogger, service: keychainService });
  let broker: Mosquitto;
  let observer: MqttClient;
  let services: KioskServices;
  const window = new FakeBrowserWindow({});

  beforeAll(async () => {
    broker = await startMosquitto({
      users: { kiosk: 'kiosk-pw', fleet: 'fleet-pw' },
      acl: {
        // The kiosk rules of docs/running-a-fleet.md: its own topics, group and fleet-wide commands, its discovery configs.
        kiosk: ['loyalty-kiosk/k1/#', 'read loyalty-kiosk/all/cmd/+', 'read loyalty-kiosk/group/+/cmd/+', 'write homeassistant/+/loyalty-kiosk-k1/#'],
        fleet: ['loyalty-kiosk/#', 'read homeassistant/#'],
      },
    });
    observer = await mqtt.connectAsync(broker.url, { username: 'fleet', password: 'fleet-pw' });
    await secrets.set('mqttPassword', 'kiosk-pw');
    services = await startKioskServices({
      dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-kiosk-')),
      version: 'test',
      keychainService,
      // The Electron host's window commands, on the fake Electron window.
      host: { restart: () => {}, quit: () => {}, ...windowCommands(() => window.electron) },
    });
  });

  afterAll(async () => {
    await services?.close();
    await observer?.endAsync();
    await broker?.stop();
    for (const name of SECRET_NAMES) await secrets.remove(name).catch(() => {});
  });

  /** The fleet link as an unlocked console's diagnostics show it (diagnostics are a manager call). */
  const manager = new BridgeConnection('console');
  const consoleFleet = async () => {
    if (services.config.get().manager.pinHash === null) {
      services.config.set('manager.pinHash', await hashPin('2580'));
      await services.dispatch('unlockManager', { pin: '2580' }, manager);
    }
    const answer = await services.dispatch('getDiagnostics', {}, manager);
    return (answer as { value?: { fleet: unknown } }).value?.fleet;
  };

  const nextMessage = (topic: string, accept: (text: string) => boolean, trigger?: () => unknown) => nextOn(observer, topic, accept, trigger);

  it('connects once fleet.mqtt.url is set and publishes online and its health', async () => {
    const health = nextMessage('loyalty-kiosk/k1/health', () => true);
    const online = nextMessage('loyalty-kiosk/k1/status', (text) => text === 'online', () =>
      services.config.setMany({ 'fleet.mqtt.url': broker.url, 'fleet.mqtt.username': 'kiosk', 'fleet.kioskId': 'k1' }),
    );
    expect(await online).toBe('online');
    const parsed = FleetHealth.parse(JSON.parse(await health));
    expect(parsed).toMatchObject({
      version: 'test',
      mode: 'demo',
      locksHeld: 0,
      scanner: { connection: 'keyboard', lastScanAt: null },
      kioskId: 'k1',
      shop: null,
      groups: [],
      asleep: false,
      settings: expect.stringMatching(/^[0-9a-f]{12}$/),
    });
    expect(parsed.freeDiskBytes).toBeGreaterThan(0);
    expect(parsed.at).toBeGreaterThan(Date.now() - 60_000);
    expect(parsed.countersSince).toBeLessThanOrEqual(parsed.at);
  });

  it('keeps its health on the broker: a dashboard that subscribes later has it at once, with the last scan of any scanner (#23)', async () => {
    const screen = new BridgeConnection('wedge-screen');
    await services.dispatch('reportScan', { source: 'keyboard' }, screen);
    // A screen that reports itself is a change health goes out for.
    const scanned = nextMessage('loyalty-kiosk/k1/health', (text) => JSON.parse(text).scanner.lastScanAt !== null, () => services.dispatch('reportScreen', { screen: 'attract' }, screen));
    expect(FleetHealth.parse(JSON.parse(await scanned)).scanner.lastScanAt).toBeGreaterThan(Date.now() - 60_000);
    const dashboard = await mqtt.connectAsync(broker.url, { username: 'fleet', password: 'fleet-pw' });
    try {
      const retained = await nextOn(dashboard, 'loyalty-kiosk/k1/health');
      expect(FleetHealth.parse(JSON.parse(retained)).scanner.lastScanAt).not.toBeNull();
    } finally {
      await dashboard.endAsync();
      services.activity.forget(screen);
    }
  });

  it('takes commands for its groups and the whole fleet once fleet.groups lists them, answering on its own topic (#23)', async () => {
    await nextMessage('loyalty-kiosk/k1/health', (text) => JSON.parse(text).groups.includes('north'), () => services.config.setMany({ 'fleet.groups': ['north', 'pilot'] }));
    await expect.poll(consoleFleet, { timeout: 10_000 }).toMatchObject({ state: 'online', lastError: null });
    const answer = (id: string) => (text: string) => JSON.parse(text).id === id;
    const viaGroup = await nextMessage('loyalty-kiosk/k1/cmd/doctor/result', answer('group-1'), () =>
      observer.publishAsync('loyalty-kiosk/group/north/cmd/doctor', '{"id":"group-1"}', { qos: 1 }),
    );
    expect(JSON.parse(viaGroup)).toMatchObject({ id: 'group-1', ok: true });
    const viaAll = await nextMessage('loyalty-kiosk/k1/cmd/doctor/result', answer('all-1'), () => observer.publishAsync('loyalty-kiosk/all/cmd/doctor', '{"id":"all-1"}', { qos: 1 }));
    expect(JSON.parse(viaAll)).toMatchObject({ id: 'all-1', ok: true });
    // Diagnostics show each command with the topic it came on and how it went.
    const { recentCommands } = (await consoleFleet()) as { recentCommands: Array<{ id: string; via: string; outcome: string }> };
    expect(recentCommands).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 'group-1', via: 'loyalty-kiosk/group/north/cmd/doctor', outcome: 'ok' }),
        expect.objectContaining({ id: 'all-1', via: 'loyalty-kiosk/all/cmd/doctor', outcome: 'ok' }),
      ]),
    );
  });

  it('publishes Home Assistant discovery when switched on, and removes every config when switched off (#23)', async () => {
    const configs = new Map<string, string>();
    const record = (topic: string, payload: Buffer) => topic.startsWith('homeassistant/') && configs.set(topic, payload.toString());
    observer.on('message', record);
    await observer.subscribeAsync('homeassistant/#', { qos: 1 });
    try {
      services.config.setMany({ 'fleet.homeAssistant.discovery': true });
      const published = discoveryMessages({ discoveryPrefix: 'homeassistant', topicPrefix: 'loyalty-kiosk', kioskId: 'k1', version: '1.0.0' }).length;
      await expect.poll(() => [...configs.values()].filter(Boolean).length, { timeout: 10_000 }).toBe(published);
      // As the broker keeps them: what Home Assistant requires of each, for this kiosk's topics.
      const kiosk = { status: 'loyalty-kiosk/k1/status', health: 'loyalty-kiosk/k1/health', commands: 'loyalty-kiosk/k1/ha/' };
      expect([...configs].flatMap(([topic, payload]) => discoveryProblems(topic, payload, kiosk))).toEqual([]);
      expect([...configs.keys()].every((topic) => topic.includes('/loyalty-kiosk-k1/'))).toBe(true);
      services.config.setMany({ 'fleet.homeAssistant.discovery': false });
      await expect.poll(() => [...configs.values()].filter(Boolean).length, { timeout: 10_000 }).toBe(0);
      expect(configs.size).toBe(published);
    } finally {
      observer.off('message', record);
      await observer.unsubscribeAsync('homeassistant/#');
    }
    // Gone from the broker too: a dashboard that subscribes now finds no config.
    const retained: string[] = [];
    const late = await mqtt.connectAsync(broker.url, { username: 'fleet', password: 'fleet-pw' });
    late.on('message', (topic) => topic.startsWith('homeassistant/') && retained.push(topic));
    await late.subscribeAsync('homeassistant/#', { qos: 1 });
    await nextOn(late, 'loyalty-kiosk/k1/status');
    await late.endAsync();
    expect(retained).toEqual([]);
  });

  it('answers doctor with the kioskctl doctor report and diagnostics with the console\'s', async () => {
    const doctor = JSON.parse(
      await nextMessage('loyalty-kiosk/k1/cmd/doctor/result', () => true, () => observer.publishAsync('loyalty-kiosk/k1/cmd/doctor', '{"id":"doc-1"}', { qos: 1 })),
    );
    expect(doctor).toMatchObject({ id: 'doc-1', ok: true, result: { checks: expect.arrayContaining([expect.objectContaining({ name: 'config' })]) } });
    const diagnostics = JSON.parse(
      await nextMessage('loyalty-kiosk/k1/cmd/diagnostics/result', () => true, () => observer.publishAsync('loyalty-kiosk/k1/cmd/diagnostics', '{"id":"diag-1"}', { qos: 1 })),
    );
    expect(diagnostics).toMatchObject({ id: 'diag-1', ok: true, result: { version: 'test', demo: true } });
    // The console's diagnostics show the fleet link: its state, the broker's host (no credentials), the kiosk id.
    expect(diagnostics.result.fleet).toEqual({
      state: 'online',
      lastError: null,
      broker: `127.0.0.1:${broker.port}`,
      kioskId: 'k1',
      lastHealthAt: expect.any(Number),
      recentCommands: expect.arrayContaining([expect.objectContaining({ command: 'doctor', id: 'doc-1', via: 'loyalty-kiosk/k1/cmd/doctor', outcome: 'ok' })]),
    });
  });

  it('takes a flood of doctors over the broker one at a time, from one check: the rest wait or are busy (#20 §6)', async () => {
    const topic = 'loyalty-kiosk/k1/cmd/doctor/result';
    const total = 20;
    const answers: Array<{ id: string; ok: boolean; result?: { checkedAt: number }; error?: string }> = [];
    // Results only: those that waited their turn said so first.
    const onMessage = (at: string, payload: Buffer) => at === topic && 'ok' in JSON.parse(payload.toString()) && answers.push(JSON.parse(payload.toString()));
    observer.on('message', onMessage);
    await observer.subscribeAsync(topic, { qos: 1 });
    await Promise.all(Array.from({ length: total }, (_, index) => observer.publishAsync('loyalty-kiosk/k1/cmd/doctor', JSON.stringify({ id: `flood-${index}` }), { qos: 1 })));
    await expect.poll(() => answers.filter((answer) => answer.id.startsWith('flood-')).length, { timeout: 30_000 }).toBe(total);
    observer.off('message', onMessage);
    await observer.unsubscribeAsync(topic);
    const flood = answers.filter((answer) => answer.id.startsWith('flood-'));
    const done = flood.filter((answer) => answer.ok);
    // Every one answered; those past the short queue at once, as busy.
    expect(flood.filter((answer) => !answer.ok).every((answer) => /^busy/.test(answer.error!))).toBe(true);
    expect(done.length).toBeGreaterThan(0);
    // One check (made by the first, or reused from the doctor before), however many asked.
    expect(new Set(done.map((answer) => answer.result!.checkedAt)).size).toBe(1);
  });

  it('publishes no shopper data: a visit with a known card, e-mail and voucher leaves none of them in any message', async () => {
    const manifest = JSON.parse(fs.readFileSync(services.sandbox!.manifestPath, 'utf8')) as {
      contacts: Array<{ email: string; identifiers: string[] }>;
      vouchers: Array<{ uuid: string; code: string }>;
    };
    const [card] = manifest.contacts[0]!.identifiers;
    const { email } = manifest.contacts[0]!;
    const voucher = manifest.vouchers[0]!;
    const published: string[] = [];
    const record = (topic: string, payload: Buffer) => published.push(`${topic} ${payload.toString()}`);
    observer.on('message', record);
    await observer.subscribeAsync('loyalty-kiosk/k1/#', { qos: 1 });
    const screen = new BridgeConnection('shopper-screen');
    const call = async (name: string, input: unknown) => {
      const answer = await services.dispatch(name, input, screen);
      expect(answer, name).toMatchObject({ ok: true });
      return answer;
    };

    const duringVisit = nextMessage('loyalty-kiosk/k1/health', (text) => JSON.parse(text).screen === 'visit', () => call('reportScreen', { screen: 'visit' }));
    await call('lookupScan', { value: card });
    await call('identifyByEmail', { email });
    await call('lookupScan', { value: voucher.code });
    await call('lockVoucher', { voucherUuid: voucher.uuid, code: voucher.code });
    await call('releaseVoucher', { voucherUuid: voucher.uuid, reason: 'cancel' });
    expect(FleetHealth.parse(JSON.parse(await duringVisit))).toMatchObject({ screen: 'visit' });
    const afterVisit = nextMessage('loyalty-kiosk/k1/health', (text) => JSON.parse(text).screen === 'attract', () => call('reportScreen', { screen: 'attract' }));
    const health = FleetHealth.parse(JSON.parse(await afterVisit));
    expect(health).toMatchObject({ screen: 'attract', locksHeld: 0, outOfServiceMinutes: 0, platformProbe: { latencyMs: expect.any(Number) } });
    for (const name of ['doctor', 'diagnostics']) {
      await nextMessage(`loyalty-kiosk/k1/cmd/${name}/result`, () => true, () => observer.publishAsync(`loyalty-kiosk/k1/cmd/${name}`, `{"id":"${name}-2"}`, { qos: 1 }));
    }
    observer.off('message', record);
    services.activity.forget(screen);

    expect(published.filter((text) => text.includes('/health ')).length).toBeGreaterThanOrEqual(2);
    expect(published.filter((text) => text.includes('/result ')).length).toBe(2);
    for (const text of published) {
      for (const shopperData of [card!, email, voucher.code]) expect(text).not.toContain(shopperData);
    }
  });

  it('takes a screenshot of the window on the attract screen only, and reloads it for the fleet', async () => {
    const screen = new BridgeConnection('kiosk-window');
    const command = async (name: string, request: string) =>
      JSON.parse(await nextMessage(`loyalty-kiosk/k1/cmd/${name}/result`, () => true, () => observer.publishAsync(`loyalty-kiosk/k1/cmd/${name}`, request, { qos: 1 })));
    window.webContents.shownPng = Buffer.from('\x89PNG the attract screen');
    await services.dispatch('reportScreen', { screen: 'visit' }, screen);
    expect(await command('screenshot', '{"id":"shot-1"}')).toEqual({ id: 'shot-1', ok: false, error: 'refused: a visit is on the screen' });
    expect(window.webContents.capturePage).not.toHaveBeenCalled();

    await services.dispatch('reportScreen', { screen: 'attract' }, screen);
    const shot = await command('screenshot', '{"id":"shot-2"}');
    expect(shot).toMatchObject({ id: 'shot-2', ok: true, result: { screenshot: 'taken', mimeType: 'image/png' } });
    expect(Buffer.from(shot.result.base64, 'base64')).toEqual(window.webContents.shownPng);

    expect(await command('reload', '{"id":"reload-1"}')).toEqual({ id: 'reload-1', ok: true, result: { reload: 'scheduled' } });
    await vi.waitFor(() => expect(window.webContents.reload).toHaveBeenCalledOnce());
    services.activity.forget(screen);
  });

  it('goes offline when the broker setting is cleared', async () => {
    const offline = nextMessage('loyalty-kiosk/k1/status', (text) => text === 'offline', () => services.config.setMany({ 'fleet.mqtt.url': null }));
    expect(await offline).toBe('offline');
    await expect.poll(consoleFleet).toEqual({
      state: 'off',
      lastError: null,
      broker: null,
      kioskId: null,
      lastHealthAt: null,
      recentCommands: expect.any(Array),
    });
  });

  it('sends no password to a broker it was not stored for: a moved URL waits for the new one, then connects with it (#20 §2)', async () => {
    // Connected to the real broker with its password: the password is now bound to that broker.
    await nextMessage('loyalty-kiosk/k1/status', (text) => text === 'online', () => services.config.setMany({ 'fleet.mqtt.url': broker.url }));
    const listener = await recordingListener();
    try {
      services.config.setMany({ 'fleet.mqtt.url': `mqtt://127.0.0.1:${listener.port}` });
      await expect.poll(consoleFleet, { timeout: 8_000 }).toMatchObject({ state: 'password_needed', lastError: expect.stringMatching(/password is needed/) });
      expect(await secrets.get('mqttPassword')).toBeNull();
      expect(kioskEvents(services.dataDir, 'secrets.removed').map((line) => line.binding)).toContain('broker');

      // The manager enters the new broker's password in the console: the kiosk connects with that one.
      await services.dispatch('setSecret', { name: 'mqttPassword', value: 'listener-pw' }, manager);
      await expect.poll(() => listener.heard().includes('listener-pw'), { timeout: 10_000 }).toBe(true);
      expect(listener.heard()).not.toContain('kiosk-pw');
    } finally {
      services.config.setMany({ 'fleet.mqtt.url': null });
      await listener.close();
      // As before the move: the broker's password, bound to no broker yet.
      await secrets.bindOrigin('broker', null);
      await secrets.set('mqttPassword', 'kiosk-pw');
    }
  });

  it('shows a broker that refuses the kiosk in the console\'s diagnostics, with the reason', async () => {
    await secrets.set('mqttPassword', 'wrong-password');
    services.config.setMany({ 'fleet.mqtt.url': broker.url });
    await expect
      .poll(consoleFleet, { timeout: 8_000 })
      .toMatchObject({ state: 'refused', lastError: expect.stringMatching(/refused the kiosk/), broker: `127.0.0.1:${broker.port}`, kioskId: 'k1' });
    services.config.setMany({ 'fleet.mqtt.url': null });
  });
});
