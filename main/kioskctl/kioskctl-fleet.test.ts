import { execFile, spawn } from 'node:child_process';
import { parse as parseCsv } from 'csv-parse/sync';
import { testLedger } from '../../test/support/ledger.node.ts';
import { ledgerAttempt } from '../../test/support/factories.std.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMosquitto, startShippedMosquitto, type Mosquitto } from '../../test/support/mosquitto.node.ts';
import { builtCli } from '../../test/support/built-cli.node.ts';
import { until } from '../../test/support/until.std.ts';
import { sampleHealth } from '../../test/support/fleet-health-sample.std.ts';
import { KioskActivity } from '../activity/kiosk-activity.std.ts';
import { BridgeConnection } from '../bridge/dispatcher.std.ts';
import { ConfigStore } from '../config/config-store.node.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { type FleetClient, startFleetClient } from '../fleet/fleet-client.node.ts';
import { CommandLog } from '../fleet/command-log.std.ts';
import { DOCTOR_REUSE_MS, fleetCommands } from '../fleet-commands/fleet-commands.node.ts';
import type { FleetHealth } from '../fleet/fleet-messages.std.ts';

const PREFIX = 'loyalty-kiosk';
const password = (user: string) => `${user}-pw`;
/** A kiosk whose id a hostile party chose: a bidi override that would turn the rest of the line around. */
const EVIL = 'store-\u202eevil';

/** A kiosk's health as it would publish it, for kiosk `kioskId` in `groups`: a serial scanner, two timeouts, 1.5 minutes out of service. */
const healthOf = (kioskId: string, groups: string[], changes: Partial<FleetHealth> = {}): FleetHealth =>
  sampleHealth(kioskId, {
    groups,
    platformErrors: { timeout: 2 },
    outOfServiceMinutes: 1.5,
    scanner: { connection: 'serial', state: 'connected', lastScanAt: Date.now() - 60_000 },
    update: { ...sampleHealth(kioskId).update, state: 'idle', note: null },
    ...changes,
  });

/** Any control or bidi character but the line breaks output is made of: none may reach an operator's terminal raw. */
const RAW_CONTROL = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The real kioskctl in its own process, with no data folder of its own (an operator's laptop). */
function kioskctl(args: string[], options: { stdin?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<Run> {
  const dataDir = path.join(os.tmpdir(), `kioskctl-fleet-none-${process.pid}`);
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [builtCli('kioskctl'), '--data', dataDir, ...args],
      { encoding: 'utf8', cwd: options.cwd, env: { ...process.env, KIOSK_PROVISIONING_FILE: path.join(dataDir, 'none.json'), ...options.env } },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
    );
    child.stdin?.end(options.stdin ?? '');
  });
}

/**
 * The fleet's broker exactly as deploy/mosquitto/ ships it (#28), with the users docs/running-a-fleet.md
 * names. It names each connection after its user, so a second login as a user pushes the first off:
 * kioskctl runs as fleet-operator one at a time, `fleet watch` as the wall screen's own user, and
 * what the test plants on the broker is published by whoever may write it there, each in a login of
 * its own (a kiosk its own topics, the regional operator kioskctl's marker level).
 */
describe('kioskctl fleet against the broker deploy/mosquitto/ ships, as docs/running-a-fleet.md sets it up (#23 §3, #28)', () => {
  let broker: Mosquitto;
  const kiosks = new Map<string, FleetClient>();
  const activities = new Map<string, KioskActivity>();
  /** How many restarts each kiosk has run, and the commands it took lately. */
  const restarts = new Map<string, number>();
  const commandLogs = new Map<string, CommandLog>();
  /** What a kiosk's doctor finds, where it is not all OK. */
  const doctorChecks = new Map<string, Array<{ name: string; status: string; detail: string }>>();
  /** How far the kiosks' doctor clock is ahead: a minute more makes their next doctor a fresh one. */
  let clockAhead = 0;
  /** What a kiosk's next health says that differs from healthOf's. */
  const healthChanges = new Map<string, Partial<FleetHealth>>();
  const screen = new BridgeConnection('window');
  /** The fleet's kiosks, and the ones the tests plant: gone, oversized. */
  const kioskUsers = ['store-1', 'store-2', 'store-3', 'store-9', 'store-huge', 'store-long'];
  /** Kiosks misnamed `all` and hostile: fleet-user refuses both names, so they have a password alone. */
  const MISNAMED = 'all';
  const plantedLogins = Object.fromEntries([MISNAMED, EVIL].map((user) => [user, password(user)]));
  const asOps = (args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string) =>
    kioskctl(['fleet', ...args, '--broker', broker.url, '--user', 'fleet-operator'], { env: { KIOSKCTL_FLEET_PASSWORD: password('fleet-operator'), ...env }, cwd });

  /** Publishes retained `messages` ([topic under the prefix, payload]; '' removes one) as `user`; rejects if the broker's ACL refuses one. */
  async function publishAs(user: string, messages: Array<[topic: string, payload: string]>) {
    const client = await mqtt.connectAsync(broker.url, { username: user, password: password(user), protocolVersion: 5, reconnectPeriod: 0 });
    try {
      for (const [topic, payload] of messages) await client.publishAsync(`${PREFIX}/${topic}`, payload, { qos: 1, retain: true });
    } finally {
      await client.endAsync();
    }
  }

  function startKiosk(kioskId: string, groups: string[]) {
    const activity = new KioskActivity({ locksHeld: () => 0 });
    activity.report(screen, 'attract');
    activities.set(kioskId, activity);
    commandLogs.set(kioskId, new CommandLog());
    const config = new ConfigStore({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-ls-')), logger: silentLogger });
    // Its ledger: store-N has redeemed N vouchers of the Coffee week.
    const ledger = testLedger(fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-ledger-')));
    for (let index = 0; index < Number(kioskId.replace(/\D/g, '') || 0); index++) {
      const attempt = ledgerAttempt(`${kioskId}-${index}`);
      ledger.record({ kind: 'locked', attempt });
      ledger.record({ kind: 'redeemed', attempt, settledBy: 'redeem' });
    }
    const commands = fleetCommands({
      config,
      logger: silentLogger,
      doctor: async () => doctorChecks.get(kioskId) ?? [{ name: 'config', status: 'OK' }],
      now: () => Date.now() + clockAhead,
      diagnostics: async () => ({ kioskId, timeline: [{ at: 0, kind: 'started' }] }), activity, restart: () => void restarts.set(kioskId, (restarts.get(kioskId) ?? 0) + 1), idlePollMs: 20, ledger });
    const client = startFleetClient({ url: broker.url, username: kioskId, password: password(kioskId), kioskId, topicPrefix: PREFIX, groups, health: async () => healthOf(kioskId, groups, healthChanges.get(kioskId)), commands, logger: silentLogger, reconnectMs: 100, commandLog: commandLogs.get(kioskId) });
    kiosks.set(kioskId, client);
    return client;
  }

  /** `fleet watch` on a wall screen, as its own read-only user; its output so far; `stop()` is Ctrl-C and resolves with its exit code, `kill()` ends it whatever it does. */
  function watchFleet(options: string[] = [], user = 'fleet-wallboard') {
    const watch = spawn(process.execPath, [builtCli('kioskctl'), '--data', os.tmpdir(), 'fleet', 'watch', '--broker', broker.url, '--user', user, ...options], {
      env: { ...process.env, KIOSKCTL_FLEET_PASSWORD: password(user), KIOSK_PROVISIONING_FILE: '/nonexistent.json' },
    });
    let out = '';
    watch.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => watch.once('exit', (code) => resolve(code)));
    return {
      out: () => out,
      stop: () => {
        watch.kill('SIGINT');
        return exited;
      },
      kill: () => watch.kill('SIGKILL'),
    };
  }

  beforeAll(async () => {
    const users = ['fleet-operator', 'north-operator', 'fleet-wallboard', ...kioskUsers];
    broker = await startShippedMosquitto(Object.fromEntries(users.map((user) => [user, password(user)])), { passwordOnly: plantedLogins });
    for (const [kioskId, groups] of [['store-1', ['region-north']], ['store-2', ['region-north', 'pilot']], ['store-3', ['south']]] as const) startKiosk(kioskId, [...groups]);
    await until(() => [...kiosks.values()].every((client) => client.state().state === 'online'));
    await Promise.all([...kiosks.values()].map((client) => client.publishHealth()));
  });

  afterAll(async () => {
    await Promise.all([...kiosks.values()].map((client) => client.close()));
    await broker?.stop();
  });

  it('lists every kiosk from the retained status and health, as a table, JSON or CSV, and by group', async () => {
    const table = await asOps(['ls']);
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^KIOSK\s+STATUS\s+SINCE\s+VERSION\s+CHANNEL\s+UPDATE\s+MODE\s+PLATFORM\s+ERRORS\s+OOS MIN\s+LOCKS\s+SCANNER\s+SCREEN\s+SETTINGS\s+SHOP\s+DISK FREE\s+UPTIME\s+LAST SEEN$/);
    expect(lines.filter((line) => /^store-\d\s+online\s+/.test(line))).toHaveLength(3);
    expect(lines.find((line) => line.startsWith('store-1'))).toMatch(/1\.4\.0\s+stable\s+idle\s+connected\s+ok 42ms\s+2\s+1\.5\s+0\s+serial connected\s+attract\s+-\s+-\s+1\.0G\s+1h 0m\s+\d+s ago$/);
    expect(lines.at(-1)).toBe('3 kiosks: 3 online, 0 offline, 0 out of service, 0 stale, 0 settings drifting');

    const json = JSON.parse((await asOps(['ls', '--group', 'region-north', '--json'])).stdout) as Array<{ kioskId: string; groups: string[] }>;
    expect(json.map((row) => row.kioskId)).toEqual(['store-1', 'store-2']);
    const csv = (await asOps(['ls', '--csv'])).stdout.split('\r\n');
    expect(csv[0]).toBe('kioskId,status,since,version,channel,update,mode,platform,latencyMs,errors,outOfServiceMinutes,locksHeld,scanner,screen,groups,settings,shop,freeDiskBytes,uptimeSeconds,lastSeen,stale');
    expect(csv.filter((line) => line.startsWith('store-'))).toHaveLength(3);
    expect(csv[2]).toMatch(/^store-2,online,\d{4}-\d\d-\d\dT[\d:]+Z,1\.4\.0,stable,idle,connected,available,42,2,1\.5,0,serial connected,attract,region-north pilot,,,1000000000,3600,[\d:TZ-]+,false$/);
  });

  it('lists the fleet for an operator who may only read status and health: the wall screen, who commands nothing', async () => {
    const asWallboard = (args: string[]) => kioskctl(['fleet', ...args, '--broker', broker.url, '--user', 'fleet-wallboard'], { env: { KIOSKCTL_FLEET_PASSWORD: password('fleet-wallboard') } });
    const listed = await asWallboard(['ls']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^3 kiosks: 3 online/m);
    const refused = await asWallboard(['send', 'store-1', 'doctor']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/kioskctl: .*not authorized/i);
  });

  it('marks health that stopped coming as stale, and a kiosk that left as offline since it was last heard', async () => {
    // A kiosk that vanished an hour ago: its retained health is old, its status its Last Will.
    await publishAs('store-9', [['store-9/health', JSON.stringify(healthOf('store-9', [], { at: Date.now() - 3_600_000 }))], ['store-9/status', 'offline']]);
    try {
      const listed = (await asOps(['ls'])).stdout;
      expect(listed).toMatch(/^store-9\s+offline\s+60m ago\s.*60m ago STALE$/m);
      expect(listed).toMatch(/4 kiosks: 3 online, 1 offline, 0 out of service, 1 stale/);
    } finally {
      await publishAs('store-9', [['store-9/health', ''], ['store-9/status', '']]);
    }
  });

  it('sends to one kiosk, a group or the whole fleet and prints each kiosk\'s answer', async () => {
    const all = await asOps(['send', '--all', 'doctor']);
    expect(all.code).toBe(0);
    expect(all.stdout.match(/^store-\d\s+ok\s+\{"checks"/gm)).toHaveLength(3);
    expect(all.stdout).toMatch(/^3 answered \(3 ok, 0 failed\), 0 still waiting, 0 did not answer, 0 offline; id kioskctl-/m);

    // Diagnostics reach support's own machine whole, one file per kiosk (#34 §2).
    const saved = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-saved-'));
    const north = await asOps(['send', '--group', 'region-north', 'diagnostics', '--save', saved]);
    expect(north.stdout.match(/^store-\d/gm)).toEqual(['store-1', 'store-2']);
    expect(north.stdout).toContain(`2 answers saved in ${saved}`);
    const files = fs.readdirSync(saved).sort();
    expect(files).toEqual([expect.stringMatching(/^store-1-diagnostics-kioskctl-.*\.json$/), expect.stringMatching(/^store-2-diagnostics-kioskctl-.*\.json$/)]);
    expect(JSON.parse(fs.readFileSync(path.join(saved, files[0]!), 'utf8'))).toMatchObject({
      kioskId: 'store-1',
      command: 'diagnostics',
      outcome: 'ok',
      result: { kioskId: 'store-1', timeline: [{ at: 0, kind: 'started' }] },
    });
    // Without --save, diagnostics are kept in the folder kioskctl runs in: never only a table line.
    const here = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-here-'));
    const single = await asOps(['send', 'store-3', 'diagnostics'], {}, here);
    expect(single.stdout).toContain(`1 answer saved in ${here}`);
    expect(fs.readdirSync(here)).toEqual([expect.stringMatching(/^store-3-diagnostics-kioskctl-.*\.json$/)]);
    const doctorHere = await asOps(['send', 'store-3', 'doctor'], {}, here);
    expect(doctorHere.stdout).not.toContain('saved in');
    expect(fs.readdirSync(here)).toHaveLength(1);
    const one = await asOps(['send', 'store-3', 'config-set', '{"values":{"idle.timeoutSeconds":90}}']);
    expect(one.stdout).toMatch(/^store-3\s+ok\s+\{"changed":\["idle.timeoutSeconds"\]\}$/m);
  });

  it('exits 4 when a kiosk\'s doctor finds a check failing and names the checks in words; 3 when a kiosk was offline, named; --json carries each result whole (#35 §2)', async () => {
    doctorChecks.set('store-3', [
      { name: 'config', status: 'OK', detail: 'fine' },
      { name: 'api', status: 'FAIL', detail: 'the platform did not answer' },
    ]);
    // A doctor within the last minute is answered from memory: this one is a minute later.
    clockAhead += DOCTOR_REUSE_MS;
    await publishAs('store-9', [['store-9/status', 'offline'], ['store-9/health', JSON.stringify(healthOf('store-9', ['south']))]]);
    try {
      const south = await asOps(['send', '--group', 'south', 'doctor']);
      expect(south.code, south.stderr).toBe(4);
      expect(south.stdout).toMatch(/^store-3\s+failed\s+api FAIL: the platform did not answer$/m);
      expect(south.stdout).toMatch(/^store-9\s+offline\s+not sent/m);
      expect(south.stdout).toMatch(/^1 answered \(0 ok, 1 failed \(store-3\)\), 0 still waiting, 0 did not answer, 1 offline \(store-9\);/m);

      const json = await asOps(['send', '--group', 'south', 'doctor', '--json']);
      expect(json.code).toBe(4);
      expect(JSON.parse(json.stdout)).toEqual([
        { kioskId: 'store-3', answer: 'failed', detail: 'api FAIL: the platform did not answer', result: { checks: doctorChecks.get('store-3'), checkedAt: expect.any(Number) } },
        { kioskId: 'store-9', answer: 'offline', detail: 'not sent: a kiosk gets commands only while online' },
      ]);
      expect(json.stderr).toMatch(/^1 answered \(0 ok, 1 failed/m);

      // The failing kiosk is fine again; the offline one alone now makes it exit 3.
      doctorChecks.delete('store-3');
      clockAhead += DOCTOR_REUSE_MS;
      const offline = await asOps(['send', '--group', 'south', 'doctor']);
      expect(offline.code).toBe(3);
      expect(offline.stdout).toMatch(/^1 answered \(1 ok, 0 failed\), 0 still waiting, 0 did not answer, 1 offline \(store-9\);/m);
    } finally {
      doctorChecks.delete('store-3');
      await publishAs('store-9', [['store-9/health', ''], ['store-9/status', '']]);
    }
  });

  it('says a restart during a visit is waiting, and counts it as not answered when the time is up', async () => {
    const restartsBefore = restarts.get('store-2') ?? 0;
    activities.get('store-2')!.report(screen, 'visit');
    try {
      const sent = await asOps(['send', 'store-2', 'restart', '--timeout', '3']);
      expect(sent.code, sent.stderr).toBe(3);
      expect(sent.stdout).toMatch(/^store-2\s+waiting\s+a visit, the console or a voucher lock is on/m);
      expect(sent.stdout).toMatch(/^0 answered \(0 ok, 0 failed\), 1 still waiting \(store-2\), 0 did not answer, 0 offline;/m);
    } finally {
      activities.get('store-2')!.report(screen, 'attract');
      // The restart still waits on the kiosk: it runs once the visit is over, before the next test.
      await until(() => restarts.get('store-2') === restartsBefore + 1, { failure: 'the waiting restart never ran' });
    }
  });

  it('gets the answer of a kiosk across a broker restart while it waits: it connects again, and the kiosk runs the command once (#35 §3)', async () => {
    const restartsBefore = restarts.get('store-2') ?? 0;
    const waitingSeen = () => commandLogs.get('store-2')!.recent().some((entry) => entry.command === 'restart' && entry.by === 'fleet-operator' && entry.outcome.startsWith('waiting: a visit'));
    activities.get('store-2')!.report(screen, 'visit');
    try {
      const sending = asOps(['send', 'store-2', 'restart', '--timeout', '60']);
      await until(waitingSeen, { timeoutMs: 10_000, failure: 'the restart never waited for the visit' });
      await broker.restart();
      await until(() => [...kiosks.values()].every((client) => client.state().state === 'online'), { timeoutMs: 20_000, failure: 'the kiosks did not come back' });
      activities.get('store-2')!.report(screen, 'attract');
      const sent = await sending;
      expect(sent.code, sent.stdout + sent.stderr).toBe(0);
      expect(sent.stdout).toMatch(/^store-2\s+ok\s+\{"restart":"scheduled"\}$/m);
      expect(restarts.get('store-2')).toBe(restartsBefore + 1);
    } finally {
      activities.get('store-2')!.report(screen, 'attract');
    }
  });

  it('sends only to a kiosk id, a group or --all: "all", "group/x", a wildcard or kioskctl\'s marker level as a kiosk id is refused before anything is sent (#28 §8)', async () => {
    const targets = [['all'], ['group/region-north'], ['+'], ['.kioskctl'], ['--group', 'region-north/#']];
    const runs = await Promise.all(targets.map((target) => asOps(['send', ...target, 'doctor', '--timeout', '1'])));
    for (const [index, refused] of runs.entries()) {
      expect(refused.code, targets[index]!.join(' ')).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(/is no (kiosk id|group)/);
    }
  });

  it('lists only topics whose level is a kiosk id: a fake ".kioskctl" a regional operator may publish, or a kiosk misnamed "all", never shows (#28 §8)', async () => {
    await publishAs('north-operator', [['.kioskctl/status', 'online'], ['.kioskctl/health', JSON.stringify(healthOf('.kioskctl', ['region-north']))]]);
    await publishAs(MISNAMED, [['all/status', 'online']]);
    try {
      const listed = JSON.parse((await asOps(['ls', '--json'])).stdout) as Array<{ kioskId: string }>;
      expect(listed.map((row) => row.kioskId)).toEqual(['store-1', 'store-2', 'store-3']);
      expect((await asOps(['send', '--group', 'region-north', 'doctor'])).stdout).toMatch(/^2 answered \(2 ok, 0 failed\), 0 still waiting, 0 did not answer, 0 offline;/m);
    } finally {
      await publishAs('north-operator', [['.kioskctl/status', ''], ['.kioskctl/health', '']]);
      await publishAs(MISNAMED, [['all/status', '']]);
    }
  });

  it('skips a 60 MB retained health with a note, its kiosk still listed, and cuts a long text: the output stays small (#28 §7)', async () => {
    const huge = JSON.stringify(healthOf('store-huge', [], { version: 'x'.repeat(60 * 1024 * 1024) }));
    await publishAs('store-huge', [['store-huge/health', huge], ['store-huge/status', 'online']]);
    await publishAs('store-long', [['store-long/health', JSON.stringify(healthOf('store-long', [], { version: `9.9.9-${'y'.repeat(20_000)}` }))]]);
    try {
      const listed = await asOps(['ls']);
      expect(listed.code).toBe(0);
      expect(listed.stdout.length).toBeLessThan(4_000);
      expect(listed.stdout).toMatch(/^store-huge\s+online\s+-\s+-\s/m);
      expect(listed.stdout).toMatch(/^store-long\s+unknown\s+\S+ ago\s+9\.9\.9-y{57}…\s/m);
      expect(listed.stdout).toMatch(/^5 kiosks: 4 online/m);
      expect(listed.stderr).toBe("kioskctl: no health to show for store-huge: none yet, not a kiosk's health, or over 64 KiB (skipped unread)\n");
      expect((await asOps(['ls', '--csv'])).stdout.length).toBeLessThan(4_000);
    } finally {
      await publishAs('store-huge', [['store-huge/health', ''], ['store-huge/status', '']]);
      await publishAs('store-long', [['store-long/health', '']]);
    }
  });

  it('lets a regional operator command its group, and says the broker refused a fleet-wide command', async () => {
    const asNorth = (args: string[]) => kioskctl(['fleet', ...args, '--broker', broker.url, '--user', 'north-operator', '--password-stdin'], { stdin: `${password('north-operator')}\n` });
    expect((await asNorth(['send', '--group', 'region-north', 'doctor'])).stdout).toMatch(/^2 answered \(2 ok, 0 failed\)/m);
    const refused = await asNorth(['send', '--all', 'restart']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/kioskctl: .*(not authorized|Not authorized)/i);
  });

  it('takes no password on the command line, and says why the broker turned the operator down', async () => {
    const inArgv = await kioskctl(['fleet', 'ls', '--broker', broker.url, '--user', 'fleet-operator', '--password', password('fleet-operator')]);
    expect(inArgv.code).toBe(2);
    expect(inArgv.stderr).not.toContain(password('fleet-operator'));
    const wrong = await asOps(['ls'], { KIOSKCTL_FLEET_PASSWORD: 'wrong' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(new RegExp(`^kioskctl: 127\\.0\\.0\\.1:${broker.port}: .*(Bad username or password|Not authorized)`, 'i'));
    const plain = await kioskctl(['fleet', 'ls', '--broker', 'mqtt://broker.example:1883', '--user', 'fleet-operator'], { env: { KIOSKCTL_FLEET_PASSWORD: password('fleet-operator') } });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/use mqtts/);
  });

  it('neutralises what a hostile kiosk says in every output: the table, CSV, JSON, watch lines and send\'s summary (#28 §6)', async () => {
    const says = (version: string) => JSON.stringify(healthOf(EVIL, ["-1+1+cmd|' /C calc'!A0"], { version }));
    await publishAs(EVIL, [[`${EVIL}/health`, says('1.4.0\u001b]0;pwned\u0007\u001b[2J\u009b1m')], [`${EVIL}/status`, 'online']]);
    const watch = watchFleet();
    try {
      const table = await asOps(['ls']);
      expect(table.stdout).toMatch(/^store-\\u202eevil\s+online\s.*1\.4\.0\\x1b\]0;pwned\\x07\\x1b\[2J\\x9b1m\s/m);
      const csv = await asOps(['ls', '--csv']);
      expect(csv.stdout).toContain(`,"'-1+1+cmd|' /C calc'!A0",`);
      const json = await asOps(['ls', '--json']);
      expect(JSON.parse(json.stdout)).toContainEqual(expect.objectContaining({ kioskId: 'store-\\u202eevil', version: '1.4.0\\x1b]0;pwned\\x07\\x1b[2J\\x9b1m' }));
      // The silent kiosk is named at the deadline; 3 s leaves a loaded machine its broker round trips first.
      const sent = await asOps(['send', EVIL, 'doctor', '--timeout', '3']);
      expect(sent.stdout, sent.stderr).toMatch(/^0 answered \(0 ok, 0 failed\), 0 still waiting, 1 did not answer \(store-\\u202eevil\), 0 offline;/m);

      await until(() => / kiosks: /.test(watch.out()), { timeoutMs: 10_000, failure: `no table: ${watch.out()}` });
      await publishAs(EVIL, [[`${EVIL}/health`, says('9\u001bc\u0007')]]);
      await until(() => /Z store-\\u202eevil version 9\\x1bc\\x07$/m.test(watch.out()), { timeoutMs: 10_000, failure: `no version line: ${watch.out()}` });
      for (const output of [table.stdout, csv.stdout, json.stdout, sent.stdout, watch.out()]) expect(output).not.toMatch(RAW_CONTROL);
    } finally {
      watch.kill();
      await publishAs(EVIL, [[`${EVIL}/health`, ''], [`${EVIL}/status`, '']]);
    }
  });

  it('collects a group\'s reports into one table with a total, as CSV too, and names the kiosk that did not answer (#30 §2)', async () => {
    const table = await asOps(['report', '--group', 'region-north']);
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^KIOSK\s+REPORT\s+REDEMPTIONS\s+RELEASED\s+REFUSED\s+UNSETTLED\s+MISMATCHES\s+FIRST\s+LAST$/);
    expect(lines.find((line) => line.startsWith('store-1 '))).toMatch(/^store-1\s+X shift 1\s+1\s+0\s+0\s+0\s+-\s+\S+Z\s+\S+Z$/);
    expect(lines.find((line) => line.startsWith('store-2 '))).toMatch(/^store-2\s+X shift 1\s+2\s+/);
    expect(lines.find((line) => line.startsWith('total'))).toMatch(/^total \(2 of 2\)\s+3\s+0\s+0\s+0\s+0\s*$/);
    expect(lines.some((line) => line.startsWith('store-3'))).toBe(false);

    // A kiosk the broker says is online that does not answer: named, and the exit says not all answered.
    await publishAs('store-9', [['store-9/status', 'online'], ['store-9/health', JSON.stringify(healthOf('store-9', ['region-north']))]]);
    try {
      const csv = await asOps(['report', '--group', 'region-north', '--csv', '--timeout', '3']);
      expect(csv.code).toBe(3);
      expect(csv.stderr).toMatch(/1 did not answer \(store-9\)/);
      const rows = parseCsv(csv.stdout, { columns: true }) as Record<string, string>[];
      expect(rows.map(({ kioskId, redemptions, missing }) => [kioskId, redemptions, missing])).toEqual([
        ['store-1', '1', ''],
        ['store-2', '2', ''],
        ['store-9', '', 'no answer'],
      ]);
    } finally {
      await publishAs('store-9', [['store-9/status', ''], ['store-9/health', '']]);
    }
  });

  it('watches the fleet: the table once, then each kiosk going offline or out of service as it happens', async () => {
    const watch = watchFleet();
    try {
      await until(() => /3 kiosks: 3 online/.test(watch.out()), { timeoutMs: 10_000, failure: `no table: ${watch.out()}` });
      await kiosks.get('store-3')!.close();
      await until(() => /Z store-3 went OFFLINE$/m.test(watch.out()), { timeoutMs: 10_000, failure: `no offline line: ${watch.out()}` });
      // store-1's platform goes down: its next health says so.
      healthChanges.set('store-1', { platform: { available: false, checkedAt: Date.now() } });
      await kiosks.get('store-1')!.publishHealth();
      await until(() => /Z store-1 OUT OF SERVICE \(platform unavailable\)$/m.test(watch.out()), { timeoutMs: 10_000, failure: `no out-of-service line: ${watch.out()}` });
      expect(await watch.stop()).toBe(0);
    } finally {
      watch.kill();
      healthChanges.delete('store-1');
      await kiosks.get('store-1')!.publishHealth();
      startKiosk('store-3', ['south']);
    }
  });

  it('says the broker was lost and marks the view stale, tries it again and rebuilds the view once it is back: a broker restart under watch (#35 §3)', { timeout: 90_000 }, async () => {
    // Each watch is a login of its own user: the shipped broker lets one login per user stay.
    const watch = watchFleet();
    const json = watchFleet(['--json'], 'north-operator');
    /** Waits for what both watches say; a failure shows what they said by then. */
    const bothSay = (condition: () => boolean, what: string, timeoutMs: number) =>
      until(condition, { timeoutMs, failure: what }).catch((error: unknown) => {
        throw new Error(`${String(error)}:\n${watch.out()}\n${json.out()}`);
      });
    try {
      await bothSay(() => /3 kiosks: 3 online/.test(watch.out()) && (json.out().match(/"change":"seen"/g) ?? []).length === 3, 'no table', 10_000);
      await broker.restart();
      await bothSay(() => /Z broker back: /m.test(watch.out()) && /"broker":"back"/.test(json.out()), 'not back', 30_000);
      expect(watch.out()).toMatch(/Z broker lost: the view is STALE until it is back\n(.|\n)*Z broker back: /);
      expect(json.out()).toMatch(/"broker":"lost"(.|\n)*"broker":"back"/);
      // The kiosks came back too: whatever the view says of them now, it says it from the broker.
      await until(() => [...kiosks.values()].every((client) => client.state().state === 'online'), { timeoutMs: 20_000, failure: 'the kiosks did not come back' });
      await Promise.all([...kiosks.values()].map((client) => client.publishHealth()));
      const listed = await asOps(['ls']);
      expect(listed.stdout).toMatch(/3 kiosks: 3 online/);
      // Each JSON line is one object: a tool reads the watch line by line.
      for (const line of json.out().trim().split('\n')) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
      expect(await watch.stop()).toBe(0);
      expect(await json.stop()).toBe(0);
    } finally {
      watch.kill();
      json.kill();
    }
  });
});

describe('kioskctl fleet on brokers other than the shipped one', () => {
  /**
   * A broker that drops messages, which the shipped files cannot make: there whoever may publish
   * kioskctl's marker may also read it back. `lossy` may publish it and is never sent it, as if the
   * broker dropped it; a kiosk floods its status.
   */
  describe('a broker that loses kioskctl\'s marker', () => {
    let broker: Mosquitto;
    let flooding: MqttClient;

    beforeAll(async () => {
      broker = await startMosquitto({
        users: { lossy: password('lossy'), 'store-flood': password('store-flood') },
        acl: { lossy: [`read ${PREFIX}/+/status`, `read ${PREFIX}/+/health`, `read ${PREFIX}/+/cmd/+/result`, `write ${PREFIX}/+/cmd/+`, `write ${PREFIX}/.kioskctl/#`] },
        patterns: [`write ${PREFIX}/%u/status`],
      });
      flooding = await mqtt.connectAsync(broker.url, { username: 'store-flood', password: password('store-flood') });
    });

    afterAll(async () => {
      await flooding?.endAsync();
      await broker?.stop();
    });

    it('ends at --timeout with exit 1 and says why when the broker never says it sent everything; send then sends nothing (#28 §7)', async () => {
      // A live fleet: a status every 100 ms, so no quiet second ever comes either.
      const flood = setInterval(() => void flooding.publish(`${PREFIX}/store-flood/status`, 'online'), 100);
      const asLossy = (args: string[]) => kioskctl(['fleet', ...args, '--broker', broker.url, '--user', 'lossy'], { env: { KIOSKCTL_FLEET_PASSWORD: password('lossy') } });
      try {
        const [listed, sent] = await Promise.all([asLossy(['ls', '--timeout', '2']), asLossy(['send', 'store-1', 'doctor', '--timeout', '2'])]);
        expect(listed.code).toBe(1);
        expect(listed.stdout).toBe('');
        expect(listed.stderr).toBe("kioskctl: the broker did not send every kiosk's status and health (it may be dropping messages) within 2 s (--timeout)\n");
        expect(sent.code).toBe(1);
        expect(sent.stderr).toMatch(/within 2 s \(--timeout\); the command was not sent$/m);
      } finally {
        clearInterval(flood);
      }
    });
  });

  it('needs nothing but the broker on an anonymous loopback broker', async () => {
    const open = await startMosquitto({ anonymous: true });
    const client = startFleetClient({ url: open.url, username: null, password: null, kioskId: 'solo', topicPrefix: PREFIX, health: async () => healthOf('solo', []), commands: {}, logger: silentLogger });
    try {
      await until(() => client.state().state === 'online');
      await client.publishHealth();
      const listed = await kioskctl(['fleet', 'ls', '--broker', open.url]);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(/^solo\s+online\s/m);
    } finally {
      await client.close();
      await open.stop();
    }
  });
});