import { spawn } from 'node:child_process';
import { testLedger } from '../../test/support/ledger.node.ts';
import { ledgerAttempt } from '../../test/support/factories.std.ts';
import { localTimeOf } from '../ledger/business-day.std.ts';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../config/config-store.node.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { nextMessage as nextOn, startMosquitto, type Mosquitto } from '../../test/support/mosquitto.node.ts';
import { until } from '../../test/support/until.std.ts';
import { sampleHealth } from '../../test/support/fleet-health-sample.std.ts';
import { type FleetClient, type FleetClientOptions, MAX_INCOMING_PACKET_BYTES, MAX_WAITING_COMMANDS, startFleetClient } from './fleet-client.node.ts';
import { fleetCommands, type FleetCommandOptions } from '../fleet-commands/fleet-commands.node.ts';
import { commandMemory } from './command-memory.node.ts';
import { CommandLog } from './command-log.std.ts';
import { CommandResult, FLEET_COMMANDS, FleetHealth } from './fleet-messages.std.ts';
import { KioskActivity } from '../activity/kiosk-activity.std.ts';
import { BridgeConnection } from '../bridge/dispatcher.std.ts';

/** A kiosk on its attract screen with no lock held; `screen` is the window that shows it. */
const screen = new BridgeConnection('window-1');
const idleKiosk = () => {
  const activity = new KioskActivity({ locksHeld: () => 0 });
  activity.report(screen, 'attract');
  return activity;
};

/** A settings file of its own, with the keys a provisioning file would lock, if any. */
const freshConfig = (locked?: Record<string, unknown>) =>
  new ConfigStore({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-config-')), logger: silentLogger, locked });

/** The kiosk's fleet commands over quiet defaults (an idle kiosk, empty reports); a test sets what it looks at. */
function commandsWith(options: Partial<FleetCommandOptions> = {}) {
  return fleetCommands({
    config: freshConfig(),
    logger: silentLogger,
    doctor: async () => [],
    diagnostics: async () => ({}),
    activity: idleKiosk(),
    restart: () => {},
    ledger: testLedger(fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-ledger-'))),
    ...options,
  });
}
/** The first bytes of every PNG: what a screenshot answer must decode to. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const PREFIX = 'loyalty-kiosk';
const HEALTH: FleetHealth = sampleHealth('k1', { platformErrors: { 'conflict:409:80005': 1 }, uptimeSeconds: 5 });

let broker: Mosquitto;
let observer: MqttClient;
const clients: FleetClient[] = [];

beforeAll(async () => {
  broker = await startMosquitto({
    users: { kiosk: 'kiosk-pw', kiosk2: 'kiosk2-pw', fleet: 'fleet-pw', k5: 'k5-pw', k6: 'k6-pw' },
    // What a fleet must set: each kiosk reads and writes its own topics only (kiosk and kiosk2 as
    // before groups; k5 and k6 by docs/running-a-fleet.md's patterns, which add group and fleet-wide commands).
    acl: { kiosk: [`${PREFIX}/k1/#`], kiosk2: [`${PREFIX}/k2/#`], fleet: [`${PREFIX}/#`] },
    patterns: [`readwrite ${PREFIX}/%u/#`, `read ${PREFIX}/all/cmd/+`, `read ${PREFIX}/group/+/cmd/+`],
  });
  observer = await connectObserver();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

afterAll(async () => {
  await observer?.endAsync();
  await broker?.stop();
});

async function connectObserver() {
  return mqtt.connectAsync(broker.url, { username: 'fleet', password: 'fleet-pw', reconnectPeriod: 100 });
}

function kiosk(overrides: Partial<FleetClientOptions> = {}): FleetClient {
  const client = startFleetClient({
    url: broker.url,
    username: 'kiosk',
    password: 'kiosk-pw',
    kioskId: 'k1',
    topicPrefix: PREFIX,
    health: async () => HEALTH,
    commands: {},
    logger: silentLogger,
    reconnectMs: 100,
    ...overrides,
  });
  clients.push(client);
  return client;
}

/** The next message the observer sees on `topic` that `accept` takes. */
const nextMessage = (topic: string, accept?: (text: string) => boolean, trigger?: () => unknown) => nextOn(observer, topic, accept, trigger);

/**
 * A loopback link to the broker that passes the broker's first packet (its CONNACK) and holds back
 * everything after it until `release`: a broker slow to grant a subscription, on demand.
 */
async function holdingLink(brokerPort: number) {
  let release!: () => void;
  let holdingNow!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const holding = new Promise<void>((resolve) => (holdingNow = resolve));
  const sockets: net.Socket[] = [];
  const server = net.createServer((kioskSide) => {
    const brokerSide = net.connect(brokerPort, '127.0.0.1');
    sockets.push(kioskSide, brokerSide);
    kioskSide.pipe(brokerSide);
    let first = true;
    brokerSide.on('data', (chunk) => {
      if (first) kioskSide.write(chunk);
      else {
        holdingNow();
        void released.then(() => kioskSide.write(chunk));
      }
      first = false;
    });
    for (const socket of [kioskSide, brokerSide]) socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    holding,
    release,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/** Every command name sent to the kiosk, so a test can check that each one round-tripped. */
const sentCommands = new Set<string>();

/** The first `count` answers `kiosk` publishes for command id `id`, in order; subscribed when this returns. */
async function answersTo(name: string, id: string, count: number, kioskId = 'k1') {
  const topic = `${PREFIX}/${kioskId}/cmd/${name}/result`;
  const seen: unknown[] = [];
  const all = new Promise<unknown[]>((resolve) => {
    const onMessage = (received: string, payload: Buffer) => {
      if (received !== topic || (JSON.parse(payload.toString()) as { id: unknown }).id !== id) return;
      seen.push(JSON.parse(payload.toString()));
      if (seen.length < count) return;
      observer.off('message', onMessage);
      resolve(seen);
    };
    observer.on('message', onMessage);
  });
  await observer.subscribeAsync(topic, { qos: 1 });
  return { all };
}

/** Sends a command as the fleet would and returns its answer. */
async function command(name: string, payload: string) {
  sentCommands.add(name);
  const id = (() => {
    try {
      return (JSON.parse(payload) as { id?: unknown }).id ?? null;
    } catch {
      return null;
    }
  })();
  // Its result, past any "waiting" said before it.
  const isResult = (text: string) => (JSON.parse(text) as { id: unknown }).id === id && 'ok' in JSON.parse(text);
  const answer = await nextMessage(`${PREFIX}/k1/cmd/${name}/result`, isResult, () =>
    observer.publishAsync(`${PREFIX}/k1/cmd/${name}`, payload, { qos: 1 }),
  );
  return JSON.parse(answer) as { id: string | null; ok: boolean; result?: unknown; error?: string };
}

describe('fleet client against a real Mosquitto', () => {
  it('publishes a retained online status and health that matches its schema', async () => {
    const client = kiosk();
    await until(() => client.state().state === 'online');
    // Subscribed after the kiosk connected: only a retained status arrives.
    expect(await nextMessage(`${PREFIX}/k1/status`, (text) => text === 'online')).toBe('online');
    const health = await nextMessage(`${PREFIX}/k1/health`, () => true, () => client.publishHealth());
    expect(FleetHealth.parse(JSON.parse(health))).toEqual(HEALTH);
  });

  it('becomes offline through the Last Will when the kiosk process is SIGKILLed', async () => {
    const settings = { url: broker.url, username: 'kiosk2', password: 'kiosk2-pw', kioskId: 'k2', topicPrefix: PREFIX };
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/fleet-kiosk-child.node.ts', JSON.stringify(settings)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('online') && resolve());
        child.once('exit', (code) => reject(new Error(`child exited ${code}`)));
      });
      expect(await nextMessage(`${PREFIX}/k2/status`, (text) => text === 'online')).toBe('online');
      const offline = nextMessage(`${PREFIX}/k2/status`, (text) => text === 'offline');
      child.kill('SIGKILL');
      expect(await offline).toBe('offline');
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('answers every command on its result topic with the request\'s correlation id', async () => {
    const config = freshConfig({ 'kiosk.modes': ['regular'] });
    let restarts = 0;
    let reloads = 0;
    const client = kiosk({
      commands: commandsWith({
        config,
        doctor: async () => [{ name: 'config', status: 'OK', detail: 'fine' }],
        diagnostics: async () => ({ version: '1.2.3' }),
        restart: () => (restarts += 1),
        reload: () => (reloads += 1),
        screenshot: async () => Buffer.concat([PNG_SIGNATURE, Buffer.from('attract screen')]),
      }),
    });
    await until(() => client.state().state === 'online');

    expect(await command('doctor', '{"id":"d1"}')).toEqual({ id: 'd1', ok: true, result: { checks: [{ name: 'config', status: 'OK', detail: 'fine' }], checkedAt: expect.any(Number) } });
    expect(await command('diagnostics', '{"id":"g1"}')).toEqual({ id: 'g1', ok: true, result: { version: '1.2.3' } });
    expect(await command('config-set', '{"id":"c1","values":{"idle.timeoutSeconds":120}}')).toMatchObject({ id: 'c1', ok: true });
    expect(config.get().idle.timeoutSeconds).toBe(120);
    expect(await command('restart', '{"id":"r1"}')).toEqual({ id: 'r1', ok: true, result: { restart: 'scheduled' } });
    await until(() => restarts === 1);
    expect(await command('reload', '{"id":"r2"}')).toEqual({ id: 'r2', ok: true, result: { reload: 'scheduled' } });
    await until(() => reloads === 1);
    const shot = await command('screenshot', '{"id":"s1"}');
    expect(shot).toMatchObject({ id: 's1', ok: true, result: { screenshot: 'taken', mimeType: 'image/png' } });
    expect(Buffer.from((shot.result as { base64: string }).base64, 'base64').subarray(0, 8)).toEqual(PNG_SIGNATURE);
  });

  it('is never sent a packet over its limit: the broker drops it unread, and the next command is answered (noticed in #35)', async () => {
    const client = kiosk({ commands: commandsWith({ doctor: async () => [{ name: 'config', status: 'OK', detail: 'fine' }] }) });
    await until(() => client.state().state === 'online');
    const answered: unknown[] = [];
    const topic = `${PREFIX}/k1/cmd/doctor/result`;
    const onMessage = (received: string, payload: Buffer) => received === topic && answered.push((JSON.parse(payload.toString()) as { id: unknown }).id);
    observer.on('message', onMessage);
    try {
      await observer.subscribeAsync(topic, { qos: 1 });
      await observer.publishAsync(`${PREFIX}/k1/cmd/doctor`, JSON.stringify({ id: 'huge', pad: 'x'.repeat(MAX_INCOMING_PACKET_BYTES) }), { qos: 1 });
      expect(await command('doctor', '{"id":"after"}')).toMatchObject({ id: 'after', ok: true });
      expect(answered).not.toContain('huge');
      expect(client.state().state).toBe('online');
    } finally {
      observer.off('message', onMessage);
    }
  });

  it('answers report with the X, a Z by number or by the day it was closed, and refuses what it cannot answer (#30 §2)', async () => {
    const ledger = testLedger(fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-report-')));
    const attempt = ledgerAttempt('COFFEE-1');
    ledger.record({ kind: 'locked', attempt });
    ledger.record({ kind: 'redeemed', attempt, settledBy: 'redeem' });
    const z = ledger.closeShift();
    const client = kiosk({ commands: commandsWith({ ledger }) });
    await until(() => client.state().state === 'online');

    const x = await command('report', '{"id":"x1"}');
    expect(x).toMatchObject({ id: 'x1', ok: true, result: { kind: 'x', shift: 2, redemptions: 0 } });
    expect(await command('report', '{"id":"z1","z":1}')).toEqual({ id: 'z1', ok: true, result: z });
    const today = localTimeOf(Date.parse(z.closedAt)).slice(0, 10);
    expect(await command('report', `{"id":"z2","day":"${today}"}`)).toEqual({ id: 'z2', ok: true, result: z });
    // No shopper data travels: counts by promotion and voucher name only.
    expect(JSON.stringify(z)).not.toContain(attempt.contactUuid!);
    expect(JSON.stringify(z)).not.toContain('COFFEE-1');
    expect(await command('report', '{"id":"z3","z":9}')).toEqual({ id: 'z3', ok: false, error: 'there is no Z 9' });
    expect(await command('report', '{"id":"z4","day":"2020-01-01"}')).toEqual({ id: 'z4', ok: false, error: 'no Z was closed on 2020-01-01' });
    expect(await command('report', '{"id":"z5","z":"all"}')).toMatchObject({ id: 'z5', ok: false, error: expect.stringMatching(/^report takes/) });
  });

  it('answers reload, screenshot and update-check with a failure where the host cannot do them, never an ok (#35 §2)', async () => {
    const client = kiosk({ commands: commandsWith() });
    await until(() => client.state().state === 'online');
    expect(await command('reload', '{"id":"r3"}')).toEqual({ id: 'r3', ok: false, error: expect.stringMatching(/^unsupported: this host cannot reload/) });
    expect(await command('screenshot', '{"id":"s2"}')).toEqual({ id: 's2', ok: false, error: 'unsupported: this host cannot take a screenshot' });
    expect(await command('update-check', '{"id":"u2"}')).toEqual({ id: 'u2', ok: false, error: expect.stringMatching(/^unsupported: this kiosk does not update itself/) });
  });

  it('answers a doctor whose checks fail with ok false, the failing checks named on the line and every check carried (#35 §2)', async () => {
    const checks = [
      { name: 'config', status: 'OK', detail: 'fine' },
      { name: 'api', status: 'FAIL', detail: 'the platform did not answer' },
      { name: 'shop', status: 'FAIL', detail: 'not checked: no platform' },
    ];
    const client = kiosk({ commands: commandsWith({ doctor: async () => checks }) });
    await until(() => client.state().state === 'online');
    expect(await command('doctor', '{"id":"df1"}')).toEqual({
      id: 'df1',
      ok: false,
      error: 'api FAIL: the platform did not answer; shop FAIL: not checked: no platform',
      result: { checks, checkedAt: expect.any(Number) },
    });
  });

  it('logs the operator a command names and names them in its result, and hands the command no field of it (#35 §2)', async () => {
    const commandLog = new CommandLog();
    const client = kiosk({ commandLog, commands: commandsWith({ ledger: testLedger(fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-by-'))) }) });
    await until(() => client.state().state === 'online');
    // report takes no field but z or day: the operator is no argument of it.
    expect(await command('report', '{"id":"by1","operator":"fleet-operator"}')).toMatchObject({ id: 'by1', ok: true, result: { kind: 'x' }, by: 'fleet-operator' });
    // A sender that names no operator gets an answer it can read without knowing `by`.
    expect(CommandResult.parse(await command('report', '{"id":"by2"}'))).not.toHaveProperty('by');
    // Replayed to another operator: the answer names who asked this time.
    expect(await command('report', '{"id":"by1","operator":"north-operator"}')).toMatchObject({ id: 'by1', ok: true, replayed: true, by: 'north-operator' });
    expect(commandLog.recent().map(({ id, by }) => ({ id, by }))).toEqual([
      { id: 'by1', by: 'fleet-operator' },
      { id: 'by2', by: null },
      { id: 'by1', by: 'north-operator' },
    ]);
  });

  it('takes a screenshot only on the attract screen, and discards one during which a visit began', async () => {
    const activity = idleKiosk();
    let captures = 0;
    let startVisitMidCapture = false;
    const client = kiosk({
      commands: commandsWith({
        activity,
        screenshot: async () => {
          captures += 1;
          // A shopper scans while the page is being captured: the picture may show their visit.
          if (startVisitMidCapture) activity.report(screen, 'visit');
          await new Promise((resolve) => setTimeout(resolve, 20));
          return Buffer.concat([PNG_SIGNATURE, Buffer.from('what the screen showed')]);
        },
      }),
    });
    await until(() => client.state().state === 'online');

    activity.report(screen, 'visit');
    expect(await command('screenshot', '{"id":"visit"}')).toEqual({ id: 'visit', ok: false, error: 'refused: a visit is on the screen' });
    activity.report(screen, 'console');
    expect(await command('screenshot', '{"id":"console"}')).toMatchObject({ id: 'console', ok: false, error: 'refused: a visit is on the screen' });
    expect(captures).toBe(0);

    activity.report(screen, 'attract');
    startVisitMidCapture = true;
    const raced = await command('screenshot', '{"id":"raced"}');
    expect(raced).toEqual({ id: 'raced', ok: false, error: 'refused: the screen left the attract screen during the capture' });
    expect(captures).toBe(1);

    activity.report(screen, 'attract');
    startVisitMidCapture = false;
    expect(await command('screenshot', '{"id":"attract"}')).toMatchObject({ id: 'attract', ok: true, result: { screenshot: 'taken' } });
  });

  it('refuses config-set on a provisioning-locked key, all or nothing, and malformed payloads without crashing', async () => {
    const config = freshConfig({ 'kiosk.modes': ['regular'] });
    const client = kiosk({ commands: commandsWith({ config }) });
    await until(() => client.state().state === 'online');

    const locked = await command('config-set', '{"id":"c2","values":{"idle.timeoutSeconds":300,"kiosk.modes":["vouchers"]}}');
    expect(locked).toMatchObject({ id: 'c2', ok: false, error: expect.stringMatching(/kiosk\.modes.*provisioning/) });
    expect(config.get().idle.timeoutSeconds).toBe(60);
    expect(await command('config-set', '{"id":"c3","values":{"idle.timeoutSeconds":1}}')).toMatchObject({ id: 'c3', ok: false });

    expect(await command('doctor', 'not json')).toEqual({ id: null, ok: false, error: 'the payload is no JSON' });
    expect(await command('doctor', '{"noId":true}')).toMatchObject({ id: null, ok: false });
    expect(await command('config-set', '{"id":"c4","values":7}')).toMatchObject({ id: 'c4', ok: false });
    expect(await command('format-disk', '{"id":"x1"}')).toMatchObject({ id: 'x1', ok: false, error: expect.stringMatching(/unknown command/) });
    // Still answering after all that.
    expect(await command('diagnostics', '{"id":"g2"}')).toMatchObject({ id: 'g2', ok: true });
  });

  it('refuses config-set of the PIN and of the fleet link, naming the key, and changes nothing (#20 §1)', async () => {
    const config = freshConfig();
    const client = kiosk({ commands: commandsWith({ config }) });
    await until(() => client.state().state === 'online');
    const before = JSON.stringify(config.get());
    const attempts = [
      ['manager.pinHash', null],
      ['manager.pinHash', 'scrypt$16384$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g'],
      ['fleet.mqtt.url', 'mqtt://127.0.0.1:1'],
      ['fleet.kioskId', 'someone-else'],
      ['fleet.enabled', false],
    ] as const;
    for (const [index, [key, value]] of attempts.entries()) {
      // Beside an allowed key: all or nothing.
      const answer = await command('config-set', JSON.stringify({ id: `k${index}`, values: { 'idle.timeoutSeconds': 120, [key]: value } }));
      expect(answer).toEqual({ id: `k${index}`, ok: false, error: expect.stringContaining(`refused: ${key} is not set over the fleet`) });
    }
    expect(JSON.stringify(config.get())).toBe(before);
  });

  describe('acts on each command once (#20 §3)', () => {
    it('never runs a command left retained on the broker, at connect or after', async () => {
      let restarts = 0;
      await observer.publishAsync(`${PREFIX}/k1/cmd/restart`, '{"id":"retained","force":true}', { qos: 1, retain: true });
      try {
        const client = kiosk({ commands: commandsWith({ restart: () => (restarts += 1) }) });
        await until(() => client.state().state === 'online');
        // Answered in order: had the retained restart been delivered, it would have run before this.
        expect(await command('doctor', '{"id":"after-connect"}')).toMatchObject({ id: 'after-connect', ok: true });
        expect(await command('restart', '{"id":"sent-now","force":true}')).toMatchObject({ id: 'sent-now', ok: true });
        await until(() => restarts === 1);
        expect(restarts).toBe(1);
      } finally {
        await observer.publishAsync(`${PREFIX}/k1/cmd/restart`, '', { qos: 1, retain: true });
      }
    });

    it('answers a replayed id from memory without running it again, across a restart of the kiosk', async () => {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-memory-')), 'fleet-commands.json');
      let restarts = 0;
      const first = kiosk({ commands: commandsWith({ restart: () => (restarts += 1) }), memory: commandMemory(file, silentLogger) });
      await until(() => first.state().state === 'online');
      const answer = await command('restart', '{"id":"once","force":true}');
      expect(answer).toEqual({ id: 'once', ok: true, result: { restart: 'scheduled' } });
      await until(() => restarts === 1);
      expect(await command('restart', '{"id":"once","force":true}')).toEqual({ ...answer, replayed: true });
      await first.close();

      // The kiosk came back (the restart it was asked for): the same message again runs nothing.
      const second = kiosk({ commands: commandsWith({ restart: () => (restarts += 1) }), memory: commandMemory(file, silentLogger) });
      await until(() => second.state().state === 'online');
      expect(await command('restart', '{"id":"once","force":true}')).toEqual({ ...answer, replayed: true });
      // Another id is another command.
      expect(await command('restart', '{"id":"twice","force":true}')).toMatchObject({ id: 'twice', ok: true });
      await until(() => restarts === 2);
      expect(restarts).toBe(2);
    });

    it('refuses a command past its expiresAt (epoch ms or ISO 8601), and a malformed one', async () => {
      let reloads = 0;
      const now = 1_800_000_000_000;
      const client = kiosk({ commands: commandsWith({ reload: () => (reloads += 1) }), now: () => now });
      await until(() => client.state().state === 'online');
      expect(await command('reload', JSON.stringify({ id: 'e1', force: true, expiresAt: now }))).toEqual({ id: 'e1', ok: false, error: 'expired' });
      expect(await command('reload', JSON.stringify({ id: 'e2', force: true, expiresAt: new Date(now - 1).toISOString() }))).toEqual({ id: 'e2', ok: false, error: 'expired' });
      expect(await command('reload', JSON.stringify({ id: 'e3', force: true, expiresAt: 'tomorrow' }))).toMatchObject({ id: 'e3', ok: false, error: expect.stringMatching(/expiresAt/) });
      expect(reloads).toBe(0);
      expect(await command('reload', JSON.stringify({ id: 'e4', force: true, expiresAt: new Date(now + 60_000).toISOString() }))).toMatchObject({ id: 'e4', ok: true });
      await until(() => reloads === 1);
    });
  });

  it('refuses a command that expired while it waited its turn', async () => {
    let now = 1_800_000_000_000;
    let release!: () => void;
    let running!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const started = new Promise<void>((resolve) => (running = resolve));
    let reloads = 0;
    const diagnostics = async () => (running(), held.then(() => ({})));
    const client = kiosk({ commands: { ...commandsWith({ reload: () => (reloads += 1) }), diagnostics }, now: () => now });
    await until(() => client.state().state === 'online');
    const first = command('diagnostics', '{"id":"slow"}');
    await started;
    const waiting = command('reload', JSON.stringify({ id: 'late', force: true, expiresAt: now + 1_000 }));
    // Answered on arrival, and sent after the reload: once it is back, the reload is waiting its turn.
    expect(await command('format-disk', '{"id":"marker"}')).toMatchObject({ id: 'marker', ok: false });
    now += 1_000;
    release();
    expect(await first).toMatchObject({ id: 'slow', ok: true });
    expect(await waiting).toEqual({ id: 'late', ok: false, error: 'expired' });
    expect(reloads).toBe(0);
  });

  it('runs commands one at a time and answers busy past a short queue (#20 §6)', async () => {
    let running = 0;
    let mostAtOnce = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const client = kiosk({
      commands: {
        ...commandsWith(),
        diagnostics: async () => {
          running += 1;
          mostAtOnce = Math.max(mostAtOnce, running);
          await held;
          running -= 1;
          return { done: true };
        },
      },
    });
    await until(() => client.state().state === 'online');
    const total = 1 + MAX_WAITING_COMMANDS + 3;
    const answers = new Map<string, { ok: boolean; error?: string }>();
    const waiting = new Set<string>();
    const all = new Promise<void>((resolve) => {
      const topic = `${PREFIX}/k1/cmd/diagnostics/result`;
      const onMessage = (received: string, payload: Buffer) => {
        if (received !== topic) return;
        const answer = JSON.parse(payload.toString()) as { id: string; ok: boolean; error?: string; state?: 'waiting' };
        if (answer.state === 'waiting') return void waiting.add(answer.id);
        answers.set(answer.id, answer);
        if (answers.size < total) return;
        observer.off('message', onMessage);
        resolve();
      };
      observer.on('message', onMessage);
    });
    await observer.subscribeAsync(`${PREFIX}/k1/cmd/diagnostics/result`, { qos: 1 });
    for (let index = 0; index < total; index++) await observer.publishAsync(`${PREFIX}/k1/cmd/diagnostics`, JSON.stringify({ id: `f${index}` }), { qos: 1 });
    // One runs, MAX_WAITING wait their turn, the rest are turned away at once.
    await until(() => answers.size === total - 1 - MAX_WAITING_COMMANDS);
    expect([...answers.values()].every((answer) => !answer.ok && /^busy/.test(answer.error!))).toBe(true);
    // Those in the queue said at once that they wait their turn.
    await until(() => waiting.size === MAX_WAITING_COMMANDS);
    release();
    await all;
    await observer.unsubscribeAsync(`${PREFIX}/k1/cmd/diagnostics/result`);
    expect([...answers.values()].filter((answer) => answer.ok)).toHaveLength(1 + MAX_WAITING_COMMANDS);
    expect(mostAtOnce).toBe(1);
  });

  it('answers a doctor from a check made within the last minute (#20 §6)', async () => {
    let doctors = 0;
    let now = 1_800_000_000_000;
    const client = kiosk({ commands: commandsWith({ doctor: async () => [{ name: 'run', status: 'OK', detail: String((doctors += 1)) }], now: () => now }) });
    await until(() => client.state().state === 'online');
    const first = await command('doctor', '{"id":"dr1"}');
    now += 59_000;
    expect(await command('doctor', '{"id":"dr2"}')).toEqual({ ...first, id: 'dr2' });
    now += 1_000;
    expect(await command('doctor', '{"id":"dr3"}')).toEqual({ id: 'dr3', ok: true, result: { checks: [{ name: 'run', status: 'OK', detail: '2' }], checkedAt: now } });
    expect(doctors).toBe(2);
  });

  it.each(['restart', 'reload'] as const)('waits for idle before a %s unless forced', async (name) => {
    // A shopper's visit on the screen: the command waits until it ends (back to the attract screen).
    const activity = new KioskActivity({ locksHeld: () => 0 });
    activity.report(screen, 'visit');
    const done = { restart: 0, reload: 0 };
    const client = kiosk({
      commands: commandsWith({
        activity,
        restart: () => (done.restart += 1),
        reload: () => (done.reload += 1),
        idleWaitMs: 300,
        idlePollMs: 20,
      }),
    });
    await until(() => client.state().state === 'online');

    // Said at once: it waits for idle; then, the visit going on, its error.
    const busy = await answersTo(name, 'busy', 2);
    await observer.publishAsync(`${PREFIX}/k1/cmd/${name}`, '{"id":"busy"}', { qos: 1 });
    expect(await busy.all).toEqual([
      { id: 'busy', state: 'waiting', reason: expect.stringMatching(/visit/) },
      { id: 'busy', ok: false, error: expect.stringMatching(/busy/) },
    ]);
    expect(done[name]).toBe(0);
    expect(await command(name, '{"id":"forced","force":true}')).toMatchObject({ id: 'forced', ok: true, result: { [name]: 'scheduled' } });
    await until(() => done[name] === 1);
    const waiting = command(name, '{"id":"later"}');
    setTimeout(() => activity.report(screen, 'attract'), 100);
    expect(await waiting).toMatchObject({ id: 'later', ok: true });
    await until(() => done[name] === 2);
  });

  it('says online only once the broker granted its command subscription: a command sent then is heard (#19)', async () => {
    const link = await holdingLink(Number(new URL(broker.url).port));
    const client = kiosk({ url: `mqtt://127.0.0.1:${link.port}`, commands: commandsWith() });
    try {
      // The broker's answers after its CONNACK (the SUBACK among them) wait at the link.
      await link.holding;
      expect(client.state().state).toBe('connecting');
      link.release();
      await until(() => client.state().state === 'online');
      expect(await command('diagnostics', '{"id":"at-once"}')).toMatchObject({ id: 'at-once', ok: true });
    } finally {
      await client.close();
      link.close();
    }
  });

  it('takes commands sent to each of its groups and to the whole fleet, and answers each on its own result topic (#23)', async () => {
    const logs = { k5: new CommandLog(), k6: new CommandLog() };
    const member = (kioskId: 'k5' | 'k6', groups: string[]) =>
      kiosk({ username: kioskId, password: `${kioskId}-pw`, kioskId, groups, commands: commandsWith(), commandLog: logs[kioskId] });
    const [north, south] = [member('k5', ['north', 'pilot']), member('k6', ['south'])];
    await until(() => north.state().state === 'online' && south.state().state === 'online');
    expect(north.state().lastError).toBeNull();

    const northAnswers = await answersTo('diagnostics', 'to-north', 1, 'k5');
    await observer.publishAsync(`${PREFIX}/group/north/cmd/diagnostics`, '{"id":"to-north"}', { qos: 1 });
    expect(await northAnswers.all).toEqual([{ id: 'to-north', ok: true, result: {} }]);
    const everyone = await Promise.all(['k5', 'k6'].map((kioskId) => answersTo('diagnostics', 'to-all', 1, kioskId)));
    await observer.publishAsync(`${PREFIX}/all/cmd/diagnostics`, '{"id":"to-all"}', { qos: 1 });
    for (const answers of everyone) expect(await answers.all).toEqual([{ id: 'to-all', ok: true, result: {} }]);
    // The south kiosk heard the fleet-wide command and not the north group's: its log has the one.
    expect(logs.k6.recent().map(({ id, via }) => [id, via])).toEqual([['to-all', `${PREFIX}/all/cmd/diagnostics`]]);
    expect(logs.k5.recent().map(({ id, via, outcome }) => [id, via, outcome])).toEqual([
      ['to-north', `${PREFIX}/group/north/cmd/diagnostics`, 'ok'],
      ['to-all', `${PREFIX}/all/cmd/diagnostics`, 'ok'],
    ]);
  });

  it('stays online on a broker whose ACL predates groups, and answers on its own topic as before (#23)', async () => {
    const client = kiosk({ groups: ['north'], commands: commandsWith() });
    await until(() => client.state().state === 'online');
    expect(client.state().lastError).toBeNull();
    expect(await command('diagnostics', '{"id":"own-topic"}')).toMatchObject({ id: 'own-topic', ok: true });
  });

  it('says so when the broker\'s ACL keeps it from its own topics', async () => {
    // kiosk's ACL covers k1 only: as k3 it connects but may not publish its status.
    const client = kiosk({ kioskId: 'k3' });
    await until(() => client.state().state === 'refused');
    expect(client.state().lastError).toMatch(/ACL/);
  });

  it('is refused by the broker with a wrong password, and says so', async () => {
    const client = kiosk({ password: 'wrong' });
    await until(() => client.state().state === 'refused');
    expect(client.state().lastError).toMatch(/refused the kiosk/);
  });

  it('tries the password again from its source after a refusal, and gets in once it is fixed', async () => {
    let stored = 'wrong';
    const client = kiosk({ password: stored, readPassword: async () => stored });
    await until(() => client.state().state === 'refused');
    stored = 'kiosk-pw';
    await until(() => client.state().state === 'online');
  });

  it('reconnects to a broker that restarts, and is online again', async () => {
    // Back at once (the low end of each window): its retained status is on the broker before the
    // observer is back, the order in which a fresh-clone run once lost it.
    const client = kiosk({ random: () => 0 });
    await until(() => client.state().state === 'online');
    // The kiosk and the observer both see the outage (else a stale "connected" would start the
    // observer's wait before it is back), then the broker comes back, its store empty (no persistence).
    await broker.down();
    await until(() => client.state().state !== 'online' && !observer.connected);
    await broker.restart();
    // However far its backoff had gone (doubling from 100 ms while the broker was down), it is back.
    await until(() => client.state().state === 'online', { timeoutMs: 30_000, failure: 'the kiosk did not come back online' });
    await until(() => observer.connected, { timeoutMs: 30_000, failure: 'the observer did not reconnect' });
    // It said so again: the new broker holds its retained status.
    expect(await nextMessage(`${PREFIX}/k1/status`, (text) => text === 'online')).toBe('online');
  });

  it('backs off between reconnects in windows that double, each wait drawn at random within its window (#23)', async () => {
    // A "broker" that takes each connection and hangs up at once: every attempt fails, and is counted.
    const attempts: number[] = [];
    const server = net.createServer((socket) => {
      attempts.push(performance.now());
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // Each wait at the top of its window: 40, 80, 160, 320 ms after the first attempt's failure.
    const draws: number[] = [];
    const random = () => (draws.push(draws.length), 0.999_999);
    try {
      kiosk({ url: `mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`, reconnectMs: 40, random });
      await until(() => attempts.length === 5, { timeoutMs: 10_000, failure: 'the kiosk stopped trying' });
      const gaps = attempts.slice(1).map((at, index) => at - attempts[index]!);
      // Timers never fire early; a loaded machine may fire them late, so only the floors are sure.
      gaps.forEach((gap, index) => expect(gap).toBeGreaterThanOrEqual(40 * 2 ** index - 5));
      expect(draws.length).toBeGreaterThanOrEqual(4);
    } finally {
      server.close();
    }
  });

  it('reads the password again before every reconnect: one changed while online is used on the very next try (#23)', async () => {
    let stored = 'kiosk-pw';
    let reads = 0;
    const client = kiosk({ readPassword: async () => ((reads += 1), stored), reconnectMs: 50 });
    await until(() => client.state().state === 'online');
    stored = 'wrong';
    await broker.restart();
    // Never a refusal seen before: the first try after the broker came back already used the new password.
    await until(() => client.state().state === 'refused', { timeoutMs: 10_000, failure: 'the new password was not used' });
    expect(reads).toBeGreaterThanOrEqual(1);
    stored = 'kiosk-pw';
    await until(() => client.state().state === 'online', { timeoutMs: 10_000, failure: 'the fixed password was not used' });
    await until(() => observer.connected, { timeoutMs: 10_000, failure: 'the observer did not reconnect' });
  });

  it('keeps at most its latest health while the broker is away', async () => {
    let sent = 0;
    const client = kiosk({ health: async () => ({ ...HEALTH, uptimeSeconds: (sent += 1) }) });
    await until(() => client.state().state === 'online');
    await observer.subscribeAsync(`${PREFIX}/k1/health`, { qos: 0 });
    const seen: number[] = [];
    observer.on('message', (topic, payload) => topic === `${PREFIX}/k1/health` && seen.push(JSON.parse(payload.toString()).uptimeSeconds));
    await broker.down();
    await until(() => client.state().state !== 'online');
    seen.length = 0;
    for (let i = 0; i < 50; i += 1) await client.publishHealth();
    await broker.restart();
    await until(() => client.state().state === 'online' && observer.connected);
    // Retained: the fleet has the kiosk's health as soon as it is back, live or from the broker's store.
    await until(() => seen.includes(2), { failure: 'the health made at reconnect never reached the fleet' });
    // Health built twice, at each connect: none of the 50 asked for offline was built or queued.
    expect(sent).toBe(2);
    expect(seen.every((uptime) => uptime === 2)).toBe(true);
  });

  // Last in the file: every command the kiosk knows was sent over the broker and answered above.
  it('round-tripped every fleet command', () => {
    expect([...FLEET_COMMANDS].filter((name) => !sentCommands.has(name))).toEqual([]);
  });
});
