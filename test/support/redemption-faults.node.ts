import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogFields, Logger } from '../../main/logging/logger.std.ts';
import { createLoyaltyClient, type LoyaltyClient } from '../../main/loyalty/client.node.ts';
import { openLedger } from '../../main/ledger/ledger.node.ts';
import { openLockJournal, type LockEntry, type LockJournal } from '../../main/vouchers/lock-journal.node.ts';
import { createRedemptionService } from '../../main/vouchers/redemption-service.node.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/sandbox.node.ts';
import { FAULTS, startFaultProxy, type Fault, type FaultProxy, type ProxiedRequest, type ProxyRecord, type Stage } from './fault-proxy.node.ts';

/**
 * Seeded, randomised redemptions through a fault proxy, each ended by a (simulated) kill and a
 * restart that recovers from the journal, then compared with the sandbox.
 *
 * What is real: the sandbox over HTTP, the fault proxy, the loyalty client, the redemption
 * service and its journal on disk. What is simulated: the kill. The kiosk here is an in-process
 * service instance; "killing" it makes every platform call and journal write it has not yet
 * started (and every answer it has not yet received) hang forever, stops its timers, and a new
 * instance opens the same journal once the writes already under way are on disk, as after a
 * SIGKILL. (Real SIGKILLs of a kiosk process at each step: test/faults/redemption-sigkill.test.ts.)
 *
 * Redemptions are counted per run: confirms (redeem() calls the shopper made), told (those answered
 * "redeemed"), pending (those answered "unsettled", or not at all), landed (the sandbox's
 * times_redeemed: every voucher is fresh) and known (each redemption the kiosk learnt of, as its
 * log reports it, before the kill or at recovery). A run fails when more landed than the shopper
 * was told of plus those still pending (a double redemption), when the shopper was told of one
 * that never landed, or when the kiosk sent a Redeem for the voucher while an earlier Redeem's
 * fate was unknown to it (its answer lost, and no Find answered since). The ledger is the oracle's
 * too: once recovery has run, it must hold exactly one `redeemed` row per redemption that landed.
 */

export const KILL_STEPS = ['lock_sent', 'lock_journaled', 'redeem_sent', 'redeem_landed', 'answer'] as const;
export type KillStep = (typeof KILL_STEPS)[number];

export interface FaultRunOptions {
  seed: number;
  runs: number;
  /** Runs going on at once, each with its own proxy and journal (default 4). */
  lanes?: number;
  /** Per attempt; short, so a dropped request costs little (default 200 ms). */
  timeoutMs?: number;
  /** Chance that a request gets a fault (default 0.2). */
  faultRate?: number;
  /** Chance that a run is killed at one of the KILL_STEPS (default 0.6). */
  killRate?: number;
}

export interface FaultRunTotals {
  seed: number;
  runs: number;
  requests: number;
  faultsInjected: number;
  faultsByKind: Record<Fault, number>;
  kills: Record<KillStep, number>;
  confirms: number;
  redemptions: number;
  doubleRedemptions: number;
  /** Redeems sent while an earlier one for the same voucher was unsettled. */
  redeemsWhileUnsettled: number;
  /** Redemptions the kiosk reported that the platform does not have. */
  phantomRedemptions: number;
  /** Runs whose ledger's `redeemed` rows differ from the redemptions that landed. */
  ledgerMismatches: number;
  /** Locks still held after recovery that the kiosk neither released nor knows of. */
  locksLeft: number;
  /** Locks whose Lock answer never came: journaled intents, released by the platform's own hour. */
  lostAnswerLocks: number;
  durationMs: number;
  /** One line per failed run, naming the seed and the run. */
  failures: string[];
}

/** mulberry32: a small seeded generator; the same seed gives the same runs. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const RECOVERY_TIMEOUT_MS = 2_000;

/**
 * The kiosks' data folders: in memory (tmpfs) where the machine has one. The kill here is
 * simulated, so what a sync keeps over a power cut is not what is tested, and the ledger's
 * per-row sync on a disk would make the 200 runs wait on the disk, one row at a time (SQLite
 * writes block the thread all lanes share).
 */
const KIOSK_DIRS = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const never = () => new Promise<never>(() => {});

// Each log line by which the kiosk says one of its redemptions landed.
const REDEEMED_MESSAGES = new Set(['voucher redeemed', 'voucher redeemed (confirmed by Find Voucher)', 'voucher redemption had landed']);

function countingLogger(count: { redeemed: number }): Logger {
  const logger: Logger = {
    debug: () => {},
    info: (message: string) => void (REDEEMED_MESSAGES.has(message) && count.redeemed++),
    warn: () => {},
    error: () => {},
    child: (_fields: LogFields) => logger,
  };
  return logger;
}

interface Platform {
  sandbox: RunningSandbox;
  admin: LoyaltyClient;
  credentials: () => Promise<{ apiKey: string }>;
}

/** A kiosk's redemption service on `dir`, through `proxy`, that can be killed at any moment. */
async function startKiosk(platform: Platform, proxy: FaultProxy, dir: string, timeoutMs: number, count: { redeemed: number }) {
  let killed = false;
  let onKill = () => {};
  const death = new Promise<void>((resolve) => (onKill = resolve));
  const writes = new Set<Promise<unknown>>();
  let afterLockJournaled = () => {};

  // After the kill nothing new starts and no answer is taken in: the process is gone.
  const killable =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (killed) return never();
      const result = await call(...args).catch((error: unknown) => (killed ? never() : Promise.reject(error)));
      return killed ? never() : result;
    };

  const real = createLoyaltyClient({ baseUrl: proxy.baseUrl, credentials: platform.credentials, timeoutMs, retries: 1, retryDelayMs: 5 });
  const client = {
    findVoucher: killable(real.findVoucher),
    lockVoucher: killable(real.lockVoucher),
    redeemVoucher: killable(real.redeemVoucher),
    releaseVoucher: killable(real.releaseVoucher),
    listVouchers: killable(real.listVouchers),
  };
  const journal = await openLockJournal({ dir, logger: countingLogger(count) });
  // The real ledger on disk; a killed kiosk writes no more rows (SQLite commits whole or not at all).
  const ledger = openLedger({
    file: join(dir, 'ledger.sqlite'),
    logger: countingLogger({ redeemed: 0 }),
    kioskId: () => 'fault-kiosk',
    shopUuid: () => platform.sandbox.manifest.shops[0]!.uuid,
    businessDay: () => ({ startsAt: '04:00' }),
    retentionDays: () => 400,
  });
  const killableLedger = {
    record: (entry: Parameters<typeof ledger.record>[0]) => (killed ? null : ledger.record(entry)),
    assertWritable: () => ledger.assertWritable(),
    redeemedRowOf: (attemptId: string) => ledger.redeemedRowOf(attemptId),
  };
  const write = (started: () => Promise<void>, entry?: LockEntry): Promise<void> => {
    if (killed) return never();
    const done = started();
    writes.add(done);
    void done.finally(() => writes.delete(done)).catch(() => {});
    return done.then(() => {
      if (entry?.phase === 'locked') afterLockJournaled();
      return killed ? never() : undefined;
    });
  };
  const killableJournal: LockJournal = {
    path: journal.path,
    entries: () => journal.entries(),
    get: (voucherUuid) => journal.get(voucherUuid),
    put: (entry) => write(() => journal.put(entry), entry),
    remove: (voucherUuid) => write(() => journal.remove(voucherUuid)),
    unresolved: () => journal.unresolved(),
    resolve: (voucherUuid, entry) => write(() => journal.resolve(voucherUuid, entry), entry),
  };
  const service = createRedemptionService({
    client,
    journal: killableJournal,
    ledger: killableLedger,
    shopUuid: () => platform.sandbox.manifest.shops[0]!.uuid,
    logger: countingLogger(count),
    redeemRetryDelayMs: 5,
    releaseRetry: { initialDelayMs: 20, maxDelayMs: 100 },
  });

  return {
    service,
    death,
    journal,
    /** The `redeemed` rows the ledger holds for `code`. */
    redeemedRows: (code: string) => ledger.rowsForCode(code).filter((row) => row.kind === 'redeemed').length,
    isKilled: () => killed,
    /** Runs `hook` once the lock is on disk (for the lock_journaled step). */
    set onLockJournaled(hook: () => void) {
      afterLockJournaled = hook;
    },
    /** Stops it dead; resolves once the journal writes already under way are on disk. */
    async kill() {
      killed = true;
      service.close();
      onKill();
      await Promise.allSettled([...writes]);
      ledger.close();
    },
  };
}

type Kiosk = Awaited<ReturnType<typeof startKiosk>>;

/**
 * Each request's fault, at `rate`. In one run out of three, a fault on a POST also takes Find
 * Voucher down for its next four requests: an outage hits reads and writes alike, and a lost
 * answer that Find cannot settle is where a redemption is most at risk.
 */
function faultPlan(random: () => number, rate: number) {
  const outages = random() < 1 / 3;
  let findsDown = 0;
  return (request: ProxiedRequest): Fault | undefined => {
    if (findsDown > 0 && request.path.includes('/vouchers/find')) {
      findsDown--;
      return 'status_503';
    }
    const fault = random() < rate ? pick(random, FAULTS) : undefined;
    if (fault && outages && request.method === 'POST') findsDown = 4;
    return fault;
  };
}

function stepOf(stage: Stage, request: ProxiedRequest): KillStep | undefined {
  if (request.method === 'POST' && request.path.endsWith('/lock')) return stage === 'sent' ? 'lock_sent' : undefined;
  if (!request.path.endsWith('/vouchers/redeem')) return undefined;
  return ({ sent: 'redeem_sent', landed: 'redeem_landed', answered: 'answer' } as const)[stage];
}

interface RunResult extends ShopperTold {
  landed: number;
  /** The Redeems sent while an earlier one was unsettled, by their place in the run's requests. */
  redeemsWhileUnsettled: number[];
  known: number;
  kill: KillStep | null;
  /** The ledger's `redeemed` rows of the voucher once recovery has run. */
  recorded: number;
  /** Set when recovery left a lock or an entry behind. */
  lockLeft: string | null;
  lostAnswerLock: { dir: string; code: string } | null;
}

/** What the shopper did and was told: Redeem taps, "redeemed" answers, and answers that left it open. */
interface ShopperTold {
  confirms: number;
  told: number;
  pending: number;
}

/** One shopper at one voucher: lock, confirm or cancel, again, until done or killed. */
async function shopper(kiosk: Kiosk, random: () => number, voucher: { uuid: string; code: string }, uses: number): Promise<ShopperTold> {
  const tally: ShopperTold = { confirms: 0, told: 0, pending: 0 };
  let held = false;
  let unsettled = false;
  const act = <T>(action: Promise<T>) => Promise.race([action.then((value) => ({ value }), () => ({ value: undefined })), kiosk.death.then(() => null)]);
  for (let action = 0; action < 8 && !kiosk.isKilled(); action++) {
    if (!held) {
      const locked = await act(kiosk.service.lock(voucher.code));
      if (!locked) return tally;
      held = locked.value !== undefined;
      if (!held && random() < 0.4) return tally;
    } else if (random() < (unsettled ? 0.5 : 0.8)) {
      tally.confirms++;
      const redeemed = await act(kiosk.service.redeem(voucher.uuid));
      const outcome = redeemed?.value?.outcome;
      if (outcome === 'redeemed') tally.told++;
      // No answer (killed, or an error) or an unsettled one: it may have landed, or not.
      else if (outcome !== 'lock_lost') tally.pending++;
      if (!redeemed) return tally;
      unsettled = outcome === 'unsettled';
      if (!unsettled) held = false;
      if (outcome === 'redeemed' && (uses === 1 || random() < 0.5)) return tally;
    } else {
      if (!(await act(kiosk.service.release(voucher.uuid, 'cancel')))) return tally;
      held = false;
      unsettled = false;
    }
  }
  return tally;
}

/**
 * The Redeems in `requests` (one voucher's, in the order the kiosk sent them) sent while an
 * earlier Redeem was unsettled: its answer did not reach the kiosk intact (a fault, a lost or
 * garbled answer) and no Find has answered since.
 */
export function redeemsWhileUnsettled(requests: readonly ProxyRecord[]): number[] {
  const found: number[] = [];
  let inDoubt = false;
  requests.forEach((request, index) => {
    if (request.path.endsWith('/vouchers/redeem')) {
      if (inDoubt) found.push(index);
      inDoubt ||= request.fault !== null;
    } else if (request.path.includes('/vouchers/find') && request.fault === null) {
      inDoubt = false;
    }
  });
  return found;
}

async function oneRun(platform: Platform, proxy: FaultProxy, options: Required<FaultRunOptions>, run: number): Promise<RunResult> {
  const random = seededRandom(options.seed * 1_000 + run);
  const uses = random() < 0.5 ? 1 : 2 + Math.floor(random() * 2);
  const { promotions, contacts } = platform.sandbox.manifest;
  const voucher = (
    await platform.admin.createVoucher({ promotion_uuid: promotions[0]!.uuid, contact_uuid: contacts[0]!.uuid, total_redemptions_allowed: uses })
  ).data;
  const dir = await mkdtemp(join(KIOSK_DIRS, 'redemption-faults-'));
  const count = { redeemed: 0 };
  const plannedKill = random() < options.killRate ? pick(random, KILL_STEPS) : null;
  let kill: KillStep | null = null;
  const kiosk = await startKiosk(platform, proxy, dir, options.timeoutMs, count);
  const killAt = (step: KillStep) => {
    if (step !== plannedKill || kill) return;
    kill = step;
    void kiosk.kill();
  };
  kiosk.onLockJournaled = () => killAt('lock_journaled');
  proxy.decide = faultPlan(random, options.faultRate);
  proxy.onStage = (stage, request) => {
    const step = stepOf(stage, request);
    if (step) killAt(step);
  };

  const firstRequest = proxy.log.length;
  const tally = await shopper(kiosk, random, voucher, uses);
  // Killed or not, the kiosk stops here and starts again on a clean line, once what it had sent
  // has reached the platform (a restart takes longer than a request on loopback).
  await kiosk.kill();
  await proxy.quiet();
  proxy.decide = () => undefined;
  proxy.onStage = () => {};
  // A clean line, but a loaded machine: recovery's requests get time enough not to time out.
  const restarted = await startKiosk(platform, proxy, dir, RECOVERY_TIMEOUT_MS, count);
  const settled = await restarted.service.recover();
  restarted.service.close();
  const recorded = restarted.redeemedRows(voucher.code);
  await restarted.kill();

  const found = (await platform.admin.findVoucher({ code: voucher.code })).data;
  const left = restarted.journal.entries();
  const lostAnswer = left.length === 1 && left[0]!.phase === 'locking' && found.status === 'LOCKED';
  let lockLeft: string | null = null;
  if (!lostAnswer && left.length > 0) lockLeft = `journal still holds ${left.map((entry) => entry.phase).join(', ')}; recovery: ${JSON.stringify(settled)}`;
  else if (!lostAnswer && found.status === 'LOCKED') lockLeft = 'voucher LOCKED and unknown to the journal';
  if (!lostAnswer) await rm(dir, { recursive: true, force: true });
  const voucherRequests = proxy.log.slice(firstRequest).filter((request) => request.body.includes(voucher.code) || request.path.includes(voucher.code));
  return {
    ...tally,
    redeemsWhileUnsettled: redeemsWhileUnsettled(voucherRequests),
    landed: found.times_redeemed,
    recorded,
    known: count.redeemed,
    kill,
    lockLeft,
    lostAnswerLock: lostAnswer ? { dir, code: voucher.code } : null,
  };
}

/** Runs `runs` seeded redemptions with faults and kills; the totals say what became of them. */
export async function runRedemptionFaults(input: FaultRunOptions): Promise<FaultRunTotals> {
  const options: Required<FaultRunOptions> = { lanes: 4, timeoutMs: 200, faultRate: 0.2, killRate: 0.6, ...input };
  const started = performance.now();
  const sandboxDir = await mkdtemp(join(tmpdir(), 'redemption-faults-platform-'));
  const sandbox = await startSandbox({ dataDir: sandboxDir, port: 0 });
  const { api_key } = sandbox.manifest.credentials;
  const credentials = async () => ({ apiKey: api_key });
  const platform: Platform = { sandbox, admin: createLoyaltyClient({ baseUrl: sandbox.baseUrl, credentials }), credentials };
  const proxies = await Promise.all(Array.from({ length: options.lanes }, () => startFaultProxy(sandbox.baseUrl, { delayMs: options.timeoutMs * 1.5 })));
  const totals: FaultRunTotals = {
    seed: options.seed,
    runs: 0,
    requests: 0,
    faultsInjected: 0,
    faultsByKind: Object.fromEntries(FAULTS.map((fault) => [fault, 0])) as Record<Fault, number>,
    kills: Object.fromEntries(KILL_STEPS.map((step) => [step, 0])) as Record<KillStep, number>,
    confirms: 0,
    redemptions: 0,
    doubleRedemptions: 0,
    redeemsWhileUnsettled: 0,
    phantomRedemptions: 0,
    ledgerMismatches: 0,
    locksLeft: 0,
    lostAnswerLocks: 0,
    durationMs: 0,
    failures: [],
  };
  const lostAnswerLocks: Array<{ dir: string; code: string; run: number }> = [];
  const fail = (run: number, what: string) => totals.failures.push(`seed ${options.seed} run ${run}: ${what}`);

  try {
    let next = 0;
    await Promise.all(
      proxies.map(async (proxy) => {
        for (let run = next++; run < options.runs; run = next++) {
          const result = await oneRun(platform, proxy, options, run);
          totals.runs++;
          totals.confirms += result.confirms;
          totals.redemptions += result.landed;
          if (result.kill) totals.kills[result.kill]++;
          const what = `${result.landed} landed, ${result.told} told, ${result.pending} pending, ${result.confirms} confirmed, ${result.known} known (kill: ${result.kill ?? 'none'})`;
          if (result.landed > result.told + result.pending || result.landed > result.known) {
            totals.doubleRedemptions++;
            fail(run, `double redemption: ${what}`);
          }
          if (result.redeemsWhileUnsettled.length > 0) {
            totals.redeemsWhileUnsettled++;
            fail(run, `a Redeem sent while an earlier one was unsettled (requests ${result.redeemsWhileUnsettled.join(', ')}): ${what}`);
          }
          if (result.known > result.landed || result.told > result.landed) {
            totals.phantomRedemptions++;
            fail(run, `reported a redemption that never landed: ${what}`);
          }
          if (result.recorded !== result.landed) {
            totals.ledgerMismatches++;
            fail(run, `the ledger holds ${result.recorded} redeemed rows for ${result.landed} redemptions: ${what}`);
          }
          if (result.lockLeft) {
            totals.locksLeft++;
            fail(run, `lock left after recovery: ${result.lockLeft}`);
          }
          if (result.lostAnswerLock) lostAnswerLocks.push({ ...result.lostAnswerLock, run });
        }
      }),
    );
    for (const proxy of proxies) {
      totals.requests += proxy.log.length;
      for (const record of proxy.log) if (record.fault) totals.faultsByKind[record.fault]++;
    }
    totals.faultsInjected = Object.values(totals.faultsByKind).reduce((sum, count) => sum + count, 0);
    totals.lostAnswerLocks = lostAnswerLocks.length;
    await settleLostAnswerLocks(platform, proxies[0]!, lostAnswerLocks, (run, what) => {
      totals.locksLeft++;
      fail(run, what);
    });
  } finally {
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await sandbox.close();
    await rm(sandboxDir, { recursive: true, force: true });
  }
  totals.durationMs = performance.now() - started;
  return totals;
}

/**
 * A lock whose answer never came has no key the kiosk could release it with: the platform
 * releases it an hour on. The sandbox clock is moved past that hour, and each such kiosk, started
 * again, must then find its voucher free and forget the intent.
 */
async function settleLostAnswerLocks(
  platform: Platform,
  proxy: FaultProxy,
  locks: Array<{ dir: string; code: string; run: number }>,
  fail: (run: number, what: string) => void,
) {
  if (locks.length === 0) return;
  const response = await fetch(`${platform.sandbox.baseUrl}/_sandbox/clock`, {
    method: 'POST',
    headers: { authorization: `Bearer ${platform.sandbox.manifest.credentials.api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ advance_seconds: 60 * 60 + 1 }),
  });
  if (!response.ok) throw new Error(`the sandbox clock did not move (${response.status})`);
  for (const { dir, code, run } of locks) {
    const kiosk = await startKiosk(platform, proxy, dir, RECOVERY_TIMEOUT_MS, { redeemed: 0 });
    await kiosk.service.recover();
    kiosk.service.close();
    await kiosk.kill();
    const status = (await platform.admin.findVoucher({ code })).data.status;
    if (kiosk.journal.entries().length > 0 || status === 'LOCKED') fail(run, `lost-answer lock not settled after the platform's hour (${status})`);
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The multi-use sequence that once redeemed twice, scripted: a two-use voucher; its Redeem lands
 * but the answer is lost; Find Voucher is down; the shopper cancels, then confirms again (locking
 * anew if the cancel let go). What landed is then compared with what the shopper was told.
 */
export async function runMultiUseLostAnswer(): Promise<{ landed: number; recorded: number; told: number; pending: number; redeemsWhileUnsettled: number[]; outcomes: string[] }> {
  const sandboxDir = await mkdtemp(join(tmpdir(), 'redemption-multi-use-'));
  const sandbox = await startSandbox({ dataDir: sandboxDir, port: 0 });
  const credentials = async () => ({ apiKey: sandbox.manifest.credentials.api_key });
  const platform: Platform = { sandbox, admin: createLoyaltyClient({ baseUrl: sandbox.baseUrl, credentials }), credentials };
  const proxy = await startFaultProxy(sandbox.baseUrl, { delayMs: 300 });
  const dir = await mkdtemp(join(KIOSK_DIRS, 'redemption-multi-use-kiosk-'));
  try {
    const { promotions, contacts } = sandbox.manifest;
    const voucher = (await platform.admin.createVoucher({ promotion_uuid: promotions[0]!.uuid, contact_uuid: contacts[0]!.uuid, total_redemptions_allowed: 2 })).data;
    const count = { redeemed: 0 };
    const kiosk = await startKiosk(platform, proxy, dir, 200, count);
    const outcomes: string[] = [];
    const told = { told: 0, pending: 0 };
    const confirm = async () => {
      const outcome = await kiosk.service.redeem(voucher.uuid).then((result) => result.outcome, (error: unknown) => `error ${String(error)}`);
      outcomes.push(outcome);
      if (outcome === 'redeemed') told.told++;
      else if (outcome !== 'lock_lost') told.pending++;
    };

    await kiosk.service.lock(voucher.code);
    let redeems = 0;
    let findsDown = 0;
    // The first Redeem lands and its answer is lost; Find Voucher is down for the two asks after it
    // (the redeem's own check and the cancel's), and back for the shopper's second go.
    proxy.decide = (request) => {
      if (request.path.endsWith('/vouchers/redeem') && redeems++ === 0) {
        findsDown = 2;
        return 'drop_answer';
      }
      if (!request.path.includes('/vouchers/find') || findsDown === 0) return undefined;
      findsDown--;
      return 'status_503';
    };
    await confirm();
    outcomes.push(`cancel ${(await kiosk.service.release(voucher.uuid, 'cancel').catch((error: unknown) => ({ outcome: String(error) }))).outcome}`);
    // The cancel may keep the lock (its fate unknown) or let it go: then the shopper locks anew.
    const held = () => kiosk.journal.get(voucher.uuid) !== undefined;
    if (!held()) await kiosk.service.lock(voucher.code).catch(() => undefined);
    if (held()) await confirm();
    const requests = proxy.log.filter((request) => request.body.includes(voucher.code) || request.path.includes(voucher.code));

    await kiosk.kill();
    await proxy.quiet();
    proxy.decide = () => undefined;
    const restarted = await startKiosk(platform, proxy, dir, RECOVERY_TIMEOUT_MS, count);
    await restarted.service.recover();
    restarted.service.close();
    const recorded = restarted.redeemedRows(voucher.code);
    await restarted.kill();
    const landed = (await platform.admin.findVoucher({ code: voucher.code })).data.times_redeemed;
    return { landed, recorded, ...told, redeemsWhileUnsettled: redeemsWhileUnsettled(requests), outcomes };
  } finally {
    await proxy.close();
    await sandbox.close();
    await rm(sandboxDir, { recursive: true, force: true });
    await rm(dir, { recursive: true, force: true });
  }
}
