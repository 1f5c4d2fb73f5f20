import { execFile } from 'node:child_process';
import { testLedger } from '../support/ledger.node.ts';
import type { Ledger } from '../../main/ledger/ledger.node.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { KioskActivity } from '../../main/activity/kiosk-activity.std.ts';
import { BridgeConnection } from '../../main/bridge/dispatcher.std.ts';
import { ConfigStore } from '../../main/config/config-store.node.ts';
import { type FleetClient, startFleetClient } from '../../main/fleet/fleet-client.node.ts';
import { fleetCommands } from '../../main/fleet-commands/fleet-commands.node.ts';
import { silentLogger } from '../../main/logging/logger.std.ts';
import { startMosquitto } from '../support/mosquitto.node.ts';
import { builtCli } from '../support/built-cli.node.ts';
import { until } from '../support/until.std.ts';
import { sampleHealth } from '../support/fleet-health-sample.std.ts';
import { type BenchReport, ms, ratio, summarize } from './stats.std.ts';

const KIOSKS = 200;
const PREFIX = 'loyalty-kiosk';
/** The targets. */
const LS_TARGET_MS = 2_000;
const BACK_WITHIN_MS = 60_000;
const MOST_IN_ONE_SECOND = 0.2;

/**
 * The fleet at scale: 200 kiosks' own fleet clients (the kiosk's code, each with its id, groups,
 * commands and default reconnect backoff) in this process, against one Mosquitto with a password
 * file and an ACL. Times `kioskctl fleet ls` and `fleet send --all doctor` as an operator runs
 * them (the built CLI, its own process), the spread of reconnects after the broker restarts, and
 * the memory each kiosk's client takes.
 */
export async function benchFleetScale(): Promise<BenchReport> {
  const broker = await startMosquitto({ users: { ops: 'ops-pw', kiosk: 'kiosk-pw' }, acl: { ops: [`${PREFIX}/#`], kiosk: [`${PREFIX}/#`] } });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fleet-scale-'));
  const onlineAt = new Map<string, number[]>();
  const clients: FleetClient[] = [];
  // One real ledger the bench kiosks share: the bench sends no report, and a file each would only add setup time.
  const ledger = testLedger(dataDir);
  try {
    const heapBefore = await settledHeap();
    for (let index = 0; index < KIOSKS; index++) clients.push(kioskClient(broker.url, index, dataDir, onlineAt, ledger));
    await until(() => clients.every((client) => client.state().state === 'online'), { timeoutMs: 60_000, failure: 'not every kiosk came online' });
    const heapAfter = await settledHeap();
    await Promise.all(clients.map((client) => client.publishHealth()));

    const operator = (args: string[]) => runOperator(broker.url, args);
    const baseline = await repeat(5, () => operator(['help']).then(({ wallMs }) => wallMs));
    const ls = await repeat(5, async () => {
      const run = await operator(['fleet', 'ls', '--broker', broker.url, '--user', 'ops']);
      if (!run.stdout.includes(`${KIOSKS} kiosks: ${KIOSKS} online`)) throw new Error(`fleet ls did not list every kiosk: ${run.stdout.slice(-200)}`);
      return run.wallMs;
    });
    const send = await repeat(3, async () => {
      const run = await operator(['fleet', 'send', '--all', 'doctor', '--broker', broker.url, '--user', 'ops']);
      if (!run.stdout.includes(`${KIOSKS} answered (${KIOSKS} ok)`)) throw new Error(`fleet send did not collect every answer: ${run.stdout.slice(-300)}`);
      return run.wallMs;
    });

    for (const times of onlineAt.values()) times.length = 0;
    await broker.down();
    await until(() => clients.every((client) => client.state().state !== 'online'), { timeoutMs: 30_000, failure: 'the kiosks did not notice the broker leave' });
    await broker.restart();
    const backFrom = Date.now();
    await until(() => clients.every((client) => client.state().state === 'online'), { timeoutMs: 120_000, pollMs: 200, failure: 'not every kiosk came back' });
    const spread = reconnectSpread([...onlineAt.values()].map((times) => times[0]! - backFrom));

    const perKioskKb = (heapAfter - heapBefore) / KIOSKS / 1024;
    const lsTargetMet = ls.p50 < LS_TARGET_MS;
    const spreadMet = spread.lastMs <= BACK_WITHIN_MS && spread.busiestShare <= MOST_IN_ONE_SECOND;
    return {
      tables: [
        {
          title: `Fleet at scale: ${KIOSKS} kiosk fleet clients in one process, one Mosquitto (password file, ACL) on loopback`,
          columns: ['step', 'p50', 'max', 'vs kioskctl help', 'target'],
          rows: [
            ['kioskctl help (process start, the baseline)', ms(baseline.p50), ms(baseline.max), ratio(1), ''],
            [`kioskctl fleet ls (${KIOSKS} kiosks)`, ms(ls.p50), ms(ls.max), ratio(ls.p50 / baseline.p50), `< ${LS_TARGET_MS} ms: ${lsTargetMet ? 'met' : 'NOT met'}`],
            [`kioskctl fleet send --all doctor (${KIOSKS} answers)`, ms(send.p50), ms(send.max), ratio(send.p50 / baseline.p50), ''],
          ],
          notes: [
            `reconnects after a broker restart: all ${KIOSKS} back ${(spread.lastMs / 1000).toFixed(1)} s after it was; busiest second ${spread.busiest} kiosks (${(spread.busiestShare * 100).toFixed(0)} %); target: within ${BACK_WITHIN_MS / 1000} s, at most ${MOST_IN_ONE_SECOND * 100} % in one second → ${spreadMet ? 'met' : 'NOT met'}`,
            `per second: ${spread.histogram.join(' ')}`,
            `memory: ${perKioskKb.toFixed(1)} KiB of JS heap per kiosk client (after GC, ${KIOSKS} clients)`,
          ],
        },
      ],
      figures: { kiosks: KIOSKS, baseline, ls, send, spread, heapKiBPerClient: perKioskKb, targetsMet: { ls: lsTargetMet, reconnectSpread: spreadMet } },
    };
  } finally {
    await Promise.all(clients.map((client) => client.close()));
    ledger.close();
    await broker.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One kiosk's fleet client as the kiosk starts it, with its real commands; `onlineAt` notes each connect. */
function kioskClient(url: string, index: number, dataDir: string, onlineAt: Map<string, number[]>, ledger: Ledger): FleetClient {
  const kioskId = `store-${String(index).padStart(4, '0')}`;
  const groups = [`region-${index % 5}`];
  const activity = new KioskActivity({ locksHeld: () => 0 });
  activity.report(new BridgeConnection(kioskId), 'attract');
  const config = new ConfigStore({ dataDir: fs.mkdtempSync(path.join(dataDir, `${kioskId}-`)), logger: silentLogger });
  const commands = fleetCommands({ config, logger: silentLogger, doctor: async () => [{ name: 'config', status: 'OK' }], diagnostics: async () => ({}), activity, restart: () => {}, ledger });
  onlineAt.set(kioskId, []);
  return startFleetClient({
    url,
    username: 'kiosk',
    password: 'kiosk-pw',
    kioskId,
    topicPrefix: PREFIX,
    groups,
    health: async () => sampleHealth(kioskId, { groups, version: 'bench' }),
    commands,
    logger: silentLogger,
    onOnline: async () => void onlineAt.get(kioskId)!.push(Date.now()),
  });
}

/** How the fleet came back: when the last kiosk did, and how many came in the busiest second. */
function reconnectSpread(backAfterMs: number[]) {
  const histogram: number[] = [];
  for (const after of backAfterMs) histogram[Math.floor(Math.max(0, after) / 1000)] = (histogram[Math.floor(Math.max(0, after) / 1000)] ?? 0) + 1;
  const filled = Array.from(histogram, (count) => count ?? 0);
  const busiest = Math.max(...filled);
  return { lastMs: Math.max(...backAfterMs), busiest, busiestShare: busiest / backAfterMs.length, histogram: filled };
}

/** kioskctl as an operator runs it: the built CLI in its own process, the password in its environment. */
function runOperator(url: string, args: string[]): Promise<{ wallMs: number; stdout: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [builtCli('kioskctl'), '--data', path.join(os.tmpdir(), 'bench-operator-none'), ...args],
      { encoding: 'utf8', env: { ...process.env, KIOSKCTL_FLEET_PASSWORD: 'ops-pw', KIOSK_PROVISIONING_FILE: '/nonexistent.json' }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => (error && error.code !== 1 ? reject(new Error(`${url}: ${stderr}`)) : resolve({ wallMs: performance.now() - started, stdout })),
    );
  });
}

async function repeat(times: number, run: () => Promise<number>) {
  const values: number[] = [];
  for (let index = 0; index < times; index++) values.push(await run());
  return summarize(values);
}

/** The JS heap in use after a full collection (the flag is set for this process from here on). */
async function settledHeap(): Promise<number> {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  return process.memoryUsage().heapUsed;
}
