import { testLedger } from '../support/ledger.node.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KioskActivity } from '../../main/activity/kiosk-activity.std.ts';
import { ConfigStore } from '../../main/config/config-store.node.ts';
import { startFleetClient } from '../../main/fleet/fleet-client.node.ts';
import { fleetHealth, type HealthParts } from '../../main/fleet/fleet-service.node.ts';
import { FileLogSink, createLogger } from '../../main/logging/file-logger.node.ts';
import { ServiceHealth } from '../../main/loyalty/service-health.node.ts';
import { ScannerService } from '../../main/scanner/scanner-service.node.ts';
import { LastScan } from '../../main/scanner/last-scan.std.ts';
import { UpdateService } from '../../main/update/update-service.node.ts';
import { startMosquitto } from '../support/mosquitto.node.ts';
import { until } from '../support/until.std.ts';
import type { BenchReport } from './stats.std.ts';

/** The default health interval (fleet-client.node.ts) and the budget: 1% of one core. */
const INTERVAL_MS = 60_000;
const BUDGET_PERCENT = 1;
/** How long the connected client is watched doing nothing (keep-alive, timers). */
const IDLE_MS = 5_000;

/**
 * What publishing health costs the kiosk: the kiosk's own health builder (statfs of the data
 * folder, the scanner, the log sink, the platform's state) and its own fleet client, publishing
 * to a real Mosquitto on loopback. CPU is this process's user + system time (process.cpuUsage,
 * libuv's thread pool included) per message; spread over the 60 s interval it is the share of
 * one core health takes.
 */
export async function benchFleetHealth(counts = { warmup: 100, iterations: 2_000 }): Promise<BenchReport> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fleet-'));
  const broker = await startMosquitto({ users: { kiosk: 'kiosk-pw' }, acl: { kiosk: ['loyalty-kiosk/bench/#'] } });
  const logSink = new FileLogSink({ dir: path.join(dataDir, 'logs') });
  const logger = createLogger(logSink);
  const config = new ConfigStore({ dataDir, logger });
  const activity = new KioskActivity({ locksHeld: () => 0 });
  // As in the browser host: no installer, so the update state is `off`.
  const update = new UpdateService({ updater: null, offNote: 'bench', quitToInstall: () => {}, runningAppImage: null, config, activity, logger, dataDir, version: 'bench' });
  const parts = {
    version: 'bench',
    config,
    dataDir,
    logSink,
    health: new ServiceHealth({ probe: async () => undefined, onChange: () => {}, logger }),
    activity,
    scanner: new ScannerService({ config, logger, onScan: () => {}, onStatus: () => {} }),
    lastScan: new LastScan(() => undefined),
    schedule: { asleep: () => false },
    update,
    ledger: testLedger(dataDir),
    slips: { health: () => ({ kind: 'none' as const, state: 'none' as const, checkedAt: null }) },
  } satisfies HealthParts & { ledger: { close(): void } };
  const startedAt = Date.now();
  const health = () => fleetHealth(parts, startedAt);
  const client = startFleetClient({
    url: broker.url,
    username: 'kiosk',
    password: 'kiosk-pw',
    kioskId: 'bench',
    topicPrefix: 'loyalty-kiosk',
    health,
    commands: {},
    logger,
    healthIntervalMs: 3_600_000,
  });
  try {
    await until(() => client.state().state === 'online', { timeoutMs: 10_000, failure: 'the fleet client did not come online' });
    const build = await cpuPerCall(counts, health);
    const publish = await cpuPerCall(counts, () => client.publishHealth());
    const idle = await idleShare(IDLE_MS);
    if (client.state().state !== 'online') throw new Error('the client lost the broker during the bench');
    const percentOfCore = (cpuMs: number) => (cpuMs / INTERVAL_MS) * 100;
    const share = percentOfCore(publish.cpuMs);
    const bytes = Buffer.byteLength(JSON.stringify(await health()));
    return {
      tables: [
        {
          title: `Fleet health: ${counts.iterations} messages after ${counts.warmup} warm-up, real Mosquitto on loopback`,
          columns: ['step', 'CPU per message', 'wall per message', `CPU share at one per ${INTERVAL_MS / 1000} s`],
          rows: [
            ['build health (statfs, scanner, log, platform)', ms(build.cpuMs), ms(build.wallMs), percent(percentOfCore(build.cpuMs))],
            ['build + publish (fleet client, QoS 0)', ms(publish.cpuMs), ms(publish.wallMs), percent(share)],
            [`connected, between messages (${IDLE_MS / 1000} s; this whole process)`, '', '', percent(idle)],
          ],
          notes: [`health message: ${bytes} bytes; target: publishing + idle under ${BUDGET_PERCENT}% of one core → ${share + idle < BUDGET_PERCENT ? 'met' : 'NOT met'}`],
        },
      ],
      figures: { ...counts, intervalMs: INTERVAL_MS, messageBytes: bytes, build, publish, percentOfOneCore: share, idlePercentOfOneCore: idle, targetMet: share + idle < BUDGET_PERCENT },
    };
  } finally {
    await client.close();
    await update.close();
    parts.ledger.close();
    await broker.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** CPU (user + system) and wall time per call, over `iterations` calls one after another. */
async function cpuPerCall({ warmup, iterations }: { warmup: number; iterations: number }, call: () => Promise<unknown>) {
  for (let index = 0; index < warmup; index++) await call();
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  for (let index = 0; index < iterations; index++) await call();
  const cpu = process.cpuUsage(cpuBefore);
  return { cpuMs: (cpu.user + cpu.system) / 1000 / iterations, wallMs: (performance.now() - wallBefore) / iterations };
}

/** This process's CPU share of one core while it only waits for `durationMs`: an upper bound of the client's idle cost. */
async function idleShare(durationMs: number): Promise<number> {
  const before = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, durationMs));
  const cpu = process.cpuUsage(before);
  return ((cpu.user + cpu.system) / 1000 / durationMs) * 100;
}


const ms = (value: number) => `${value.toFixed(3)} ms`;
const percent = (value: number) => `${value.toFixed(4)} %`;
