import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/sandbox.node.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { hasEvent, recordingLogger, type LogLine } from '../../test/support/factories.std.ts';
import { createLoyaltyClient, type LoyaltyClient } from '../loyalty/client.node.ts';
import { LoyaltyError } from '../loyalty/errors.std.ts';
import { failure } from '../loyalty/loyalty-error.test-support.ts';
import { credentialsByScheme } from '../loyalty/request.std.ts';
import { DATA_FILES } from '../paths/data-files.node.ts';
import { closeTestLedgers, testLedger } from '../../test/support/ledger.node.ts';
import { LedgerUnavailable, type Ledger } from '../ledger/ledger.node.ts';
import { LockEntry, openLockJournal, type HeldLockEntry } from './lock-journal.node.ts';
import {
  createRedemptionService,
  RedemptionInFlight,
  type RedemptionService,
  type RedemptionServiceOptions,
} from './redemption-service.node.ts';

/**
 * The redemption service against the real sandbox over HTTP. Lost answers and outages come from
 * a fetch that lets the sandbox carry a request out and then drops the answer (or never sends
 * it), so every outcome is checked against what the sandbox really recorded.
 */

let sandbox: RunningSandbox;
let sandboxDir: string;
let admin: LoyaltyClient;
const scratchDirs: string[] = [];
const services: RedemptionService[] = [];

const credentials = async () => credentialsByScheme(sandbox.manifest.credentials);
const shopUuid = () => sandbox.manifest.shops[0]!.uuid;
const contactUuid = () => sandbox.manifest.contacts[0]!.uuid;

beforeAll(async () => {
  sandboxDir = await mkdtemp(join(tmpdir(), 'redemption-sandbox-'));
  sandbox = await startSandbox({ dataDir: sandboxDir, port: 0 });
  // The tests' own view of the platform, never faulty.
  admin = createLoyaltyClient({ baseUrl: sandbox.baseUrl, credentials });
});

afterEach(() => {
  for (const service of services.splice(0)) service.close();
  closeTestLedgers();
});

afterAll(async () => {
  await sandbox?.close();
  await Promise.all([sandboxDir, ...scratchDirs].map((dir) => rm(dir, { recursive: true, force: true })));
});

type Fault = 'unsent' | 'lost' | 'hang' | 'stall' | 'gated';

/**
 * A fetch to the real sandbox with faults queued by path ending: `unsent` fails before sending,
 * `lost` lets the sandbox answer and then fails, `hang` lets it answer and never returns (a crash
 * while waiting), `stall` neither sends nor returns, `gated` is sent once `openGate()` is called.
 * `offline` fails every request.
 */
function faultyLine() {
  let openGate = () => {};
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  const line = {
    offline: false,
    openGate,
    faults: [] as Array<{ path: string; fault: Fault }>,
    sent: [] as Array<{ path: string; body: unknown }>,
    fetch: (async (input: string | URL | Request, init?: RequestInit) => {
      const path = new URL(String(input)).pathname;
      const index = line.faults.findIndex((queued) => path.endsWith(queued.path));
      const fault = index >= 0 ? line.faults.splice(index, 1)[0]!.fault : undefined;
      if (line.offline || fault === 'unsent') throw new TypeError('fetch failed');
      if (fault === 'stall') return new Promise<Response>(() => {});
      if (fault === 'gated') await gate;
      line.sent.push({ path, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
      const response = await fetch(input, init);
      if (!fault || fault === 'gated') return response;
      await response.text();
      if (fault === 'hang') return new Promise<Response>(() => {});
      throw new TypeError('fetch failed');
    }) as typeof fetch,
    redeemRequests: () => line.sent.filter((request) => request.path.endsWith('/vouchers/redeem')),
  };
  return line;
}

async function kiosk({
  dir,
  line = faultyLine(),
  logs = [],
  sideCount = false,
  ...options
}: { dir?: string; line?: ReturnType<typeof faultyLine>; logs?: LogLine[]; sideCount?: boolean } & Partial<RedemptionServiceOptions> = {}) {
  const journalDir = dir ?? (await mkdtemp(join(tmpdir(), 'redemption-journal-')));
  scratchDirs.push(journalDir);
  const { logger } = recordingLogger(logs);
  const journal = await openLockJournal({ dir: journalDir, logger });
  // No client-side retries: the faults queued are exactly the failures the service meets.
  const client = createLoyaltyClient({ baseUrl: sandbox.baseUrl, credentials, fetch: line.fetch, retries: 0 });
  const ledger = testLedger(journalDir);
  const service = createRedemptionService({
    client,
    journal,
    ledger,
    shopUuid,
    logger,
    redeemRetryDelayMs: 5,
    releaseRetry: { initialDelayMs: 20, maxDelayMs: 100 },
    ...options,
  });
  services.push(service);
  return { service: sideCount ? service : countedLocks(service, journalDir), journal, line, ledger, dir: journalDir };
}

/**
 * The service, its lock() resolving once the count under the lock (read beside the confirm screen)
 * is on disk too: a test's next fault, or its simulated crash, then meets the requests and the file
 * it means to, not a count still on its way.
 */
function countedLocks(service: RedemptionService, dir: string): RedemptionService {
  return {
    ...service,
    async lock(voucher, lockFor) {
      const held = await service.lock(voucher, lockFor);
      await vi.waitFor(async () => expect((await journalOnDisk(dir)).find((entry) => entry.voucherUuid === held.voucherUuid)?.timesRedeemedBefore).not.toBeNull(), {
        timeout: 5_000,
        interval: 10,
      });
      return held;
    },
  };
}

async function freshVoucher(options: { total_redemptions_allowed?: number; expiration_date?: string } = {}) {
  const promotion = sandbox.manifest.promotions[0]!.uuid;
  return (await admin.createVoucher({ promotion_uuid: promotion, contact_uuid: contactUuid(), ...options })).data;
}

const platformView = async (code: string) => (await admin.findVoucher({ code })).data;

async function journalOnDisk(dir: string): Promise<LockEntry[]> {
  return (JSON.parse(await readFile(join(dir, DATA_FILES.voucherLocks), 'utf8')) as { entries: LockEntry[] }).entries;
}

/** The journal's entry for a lock this kiosk holds (not a mere intent). */
function heldEntry(entry: LockEntry | undefined): HeldLockEntry {
  if (!entry || entry.phase === 'locking') throw new Error(`no held lock: ${JSON.stringify(entry?.phase)}`);
  return entry;
}

/** Moves the sandbox clock forward; answers the sandbox's new time. */
async function advanceClock(seconds: number): Promise<string> {
  const response = await fetch(`${sandbox.baseUrl}/_sandbox/clock`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.manifest.credentials.api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ advance_seconds: seconds }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { now: string } }).data.now;
}

describe('lock and redeem', () => {
  it('journals the lock before lock() resolves, with the key that opens it', async () => {
    const voucher = await freshVoucher();
    const { service, dir, line } = await kiosk({ sideCount: true });
    line.faults.push({ path: '/vouchers/find', fault: 'gated' }); // the count read under the lock, held back
    const lock = await service.lock({ uuid: voucher.uuid, code: voucher.code, name: voucher.name, promotionName: voucher.promotion.name });

    expect(lock).toEqual({ voucherUuid: voucher.uuid, lockedAt: expect.any(String), systemReleaseAt: expect.any(String) });
    expect(lock).not.toHaveProperty('releaseKey');
    const entry = heldEntry((await journalOnDisk(dir))[0]);
    // The count under the lock is still on its way: it is read beside the confirm screen.
    expect(entry).toMatchObject({ voucherUuid: voucher.uuid, code: voucher.code, phase: 'locked', timesRedeemedBefore: null });
    expect(Date.parse(entry.systemReleaseAt) - Date.parse(entry.lockedAt)).toBe(60 * 60 * 1000);
    expect((await platformView(voucher.code)).status).toBe('LOCKED');
    const released = await admin.releaseVoucher({ voucher_uuid: voucher.uuid, release_key: entry.releaseKey });
    expect(released.data.voucher.status).toBe('ACTIVE');
  });

  it('redeems exactly once, empties the journal and never logs the release key or the code', async () => {
    const voucher = await freshVoucher();
    const logs: LogLine[] = [];
    const { service, journal, dir, line } = await kiosk({ logs });
    await service.lock(voucher.code);
    const releaseKey = heldEntry(journal.get(voucher.uuid)).releaseKey;

    const result = await service.redeem(voucher.uuid);
    expect(result).toMatchObject({ outcome: 'redeemed', voucher: { uuid: voucher.uuid, times_redeemed: 1 } });
    expect(result.outcome === 'redeemed' && result.redeemedAt).toEqual(expect.any(String));
    expect(await platformView(voucher.code)).toMatchObject({ status: 'REDEEMED', times_redeemed: 1 });
    expect(line.redeemRequests()).toHaveLength(1);
    expect(await journalOnDisk(dir)).toEqual([]);
    expect(logs.map(({ fields }) => fields.event)).toEqual(['voucher.locked', 'voucher.redeemed']);
    expect(JSON.stringify(logs)).not.toContain(releaseKey);
    expect(JSON.stringify(logs)).not.toContain(voucher.code);
  });

  it('releases on cancel, and every held lock on idle', async () => {
    const [first, second] = [await freshVoucher(), await freshVoucher()];
    const { service, dir } = await kiosk();
    await service.lock(first.code);
    await service.lock(second.code);

    expect(await service.release(first.uuid, 'cancel')).toEqual({ outcome: 'released' });
    expect((await platformView(first.code)).status).toBe('ACTIVE');
    expect(await service.releaseAll('idle')).toEqual([{ voucherUuid: second.uuid, outcome: 'released' }]);
    expect((await platformView(second.code)).status).toBe('ACTIVE');
    expect(await service.release(first.uuid, 'cancel')).toEqual({ outcome: 'not_held' });
    expect(await journalOnDisk(dir)).toEqual([]);
  });

  it('confirms a redeem whose answer was lost with Find Voucher, without redeeming again', async () => {
    const voucher = await freshVoucher();
    const { service, journal, line } = await kiosk();
    await service.lock(voucher.code);
    line.faults.push({ path: '/vouchers/redeem', fault: 'lost' });

    const confirmed = await service.redeem(voucher.uuid);
    expect(confirmed).toMatchObject({ outcome: 'redeemed', voucher: { status: 'REDEEMED' } });
    // Settled by Find, it has its proof all the same.
    expect(confirmed).toMatchObject({ proof: { code: expect.stringMatching(/^\d{10}$/) } });
    expect(line.redeemRequests()).toHaveLength(1);
    expect(await platformView(voucher.code)).toMatchObject({ status: 'REDEEMED', times_redeemed: 1 });
    expect(journal.entries()).toEqual([]);
  });

  it('retries a redeem that never reached the platform with the same key, and redeems once', async () => {
    const voucher = await freshVoucher();
    const { service, journal, line } = await kiosk();
    await service.lock(voucher.code);
    const releaseKey = heldEntry(journal.get(voucher.uuid)).releaseKey;
    line.faults.push({ path: '/vouchers/redeem', fault: 'unsent' });

    expect(await service.redeem(voucher.uuid)).toMatchObject({ outcome: 'redeemed' });
    expect(line.redeemRequests()).toEqual([{ path: expect.any(String), body: expect.objectContaining({ release_key: releaseKey }) }]);
    expect(await platformView(voucher.code)).toMatchObject({ status: 'REDEEMED', times_redeemed: 1 });
    expect(journal.entries()).toEqual([]);
  });

  it('keeps an unsettled redeem journaled, and a later redeem() reports the redemption that had landed', async () => {
    const voucher = await freshVoucher();
    const { service, journal, line } = await kiosk();
    await service.lock(voucher.code);
    line.faults.push({ path: '/vouchers/redeem', fault: 'lost' }, { path: '/vouchers/find', fault: 'unsent' });

    expect(await service.redeem(voucher.uuid)).toEqual({ outcome: 'unsettled' });
    expect(journal.get(voucher.uuid)?.phase).toBe('redeeming');
    // The repeat is refused (the first one consumed the lock); Find Voucher shows it had landed.
    expect(await service.redeem(voucher.uuid)).toMatchObject({ outcome: 'redeemed' });
    expect(await platformView(voucher.code)).toMatchObject({ status: 'REDEEMED', times_redeemed: 1 });
    expect(journal.entries()).toEqual([]);
  });

  it('never locks a multi-use voucher again while a redemption of it may have landed', async () => {
    const voucher = await freshVoucher({ total_redemptions_allowed: 3 });
    const { service, journal, line } = await kiosk();
    await service.lock(voucher.code);
    line.faults.push({ path: '/vouchers/redeem', fault: 'lost' }, { path: '/vouchers/find', fault: 'unsent' });
    expect(await service.redeem(voucher.uuid)).toEqual({ outcome: 'unsettled' });

    // The shopper presses Redeem again: the landed redemption is found, not repeated.
    expect(await failure(service.lock(voucher.code))).toMatchObject({ kind: 'conflict', code: 80005 });
    expect(await platformView(voucher.code)).toMatchObject({ status: 'ACTIVE', times_redeemed: 1, redemptions_remaining: 2 });
    expect(line.redeemRequests()).toHaveLength(1);
    expect(journal.entries()).toEqual([]);
  });

  it.each([
    ['had landed: reports the redemption', 'lost', { outcome: 'redeemed' }, 'REDEEMED', 1],
    ['never left: releases the lock', 'unsent', { outcome: 'released' }, 'ACTIVE', 0],
  ] as const)('letting go of an unsettled redemption that %s', async (_case, fault, outcome, status, timesRedeemed) => {
    const voucher = await freshVoucher();
    const { service, journal, line } = await kiosk();
    await service.lock(voucher.code);
    line.faults.push({ path: '/vouchers/redeem', fault }, { path: '/vouchers/find', fault: 'unsent' });
    expect(await service.redeem(voucher.uuid, {})).toEqual({ outcome: 'unsettled' });

    expect(await service.release(voucher.uuid, 'cancel')).toMatchObject(outcome);
    expect(await platformView(voucher.code)).toMatchObject({ status, times_redeemed: timesRedeemed });
    expect(line.redeemRequests()).toHaveLength(timesRedeemed);
    expect(journal.entries()).toEqual([]);
  });

  it('counts a multi-use voucher redeemed through reconciliation once per redemption', async () => {
    const voucher = await freshVoucher({ total_redemptions_allowed: 3 });
    const { service, journal, line } = await kiosk();
    await service.lock(voucher.code);
    line.faults.push({ path: '/vouchers/redeem', fault: 'lost' });

    // Still ACTIVE after one of three uses: only the count tells the redemption landed.
    expect(await service.redeem(voucher.uuid)).toMatchObject({
      outcome: 'redeemed',
      voucher: { status: 'ACTIVE', times_redeemed: 1, redemptions_remaining: 2 },
    });
    await service.lock(voucher.code);
    await expect.poll(() => journal.get(voucher.uuid)?.timesRedeemedBefore).toBe(1);
    expect(await service.redeem(voucher.uuid)).toMatchObject({ outcome: 'redeemed', voucher: { times_redeemed: 2 } });
    expect(line.redeemRequests()).toHaveLength(2);
    expect(await platformView(voucher.code)).toMatchObject({ status: 'ACTIVE', times_redeemed: 2, redemptions_remaining: 1 });
  });
});

describe('one call in a row to the confirm screen (#32)', () => {
  const known = (voucher: Awaited<ReturnType<typeof freshVoucher>>) => ({ uuid: voucher.uuid, code: voucher.code, name: voucher.name, promotionName: voucher.promotion.name });
  const paths = (line: ReturnType<typeof faultyLine>) => line.sent.map(({ path }) => path.replace(/[0-9a-f-]{36}/, ':uuid'));

  it('locks a voucher the visit was given with the Lock alone; the count under it follows beside the confirm screen', async () => {
    const voucher = await freshVoucher({ total_redemptions_allowed: 3 });
    const { service, journal, line, ledger } = await kiosk({ sideCount: true });
    const lockAnswered = service.lock(known(voucher), { identifiedBy: 'card' });
    await lockAnswered;
    // The Lock went first and alone; the Find that counts went only after it answered.
    expect(paths(line)).toEqual(['/api/vouchers/:uuid/lock', '/api/vouchers/find']);
    await expect.poll(() => journal.get(voucher.uuid)?.timesRedeemedBefore).toBe(0);
    expect(ledger.rowsForCode(voucher.code)).toEqual([expect.objectContaining({ kind: 'locked', voucherName: voucher.name, identifiedBy: 'card' })]);
    expect(await service.redeem(voucher.uuid)).toMatchObject({ outcome: 'redeemed', voucher: { times_redeemed: 1 } });
    expect(line.redeemRequests()).toHaveLength(1);
  });

  it('reads the count again at Confirm when the read beside the confirm screen failed, and sends no Redeem without one', async () => {
    const voucher = await freshVoucher();
    const { service, journal, line } = await kiosk({ sideCount: true });
    line.faults.push({ path: '/vouchers/find', fault: 'unsent' });
    await service.lock(known(voucher));
    await expect.poll(() => line.faults.length).toBe(0);
    expect(journal.get(voucher.uuid)?.timesRedeemedBefore).toBeNull();

    // Confirm while the platform cannot be asked: nothing is sent, the lock stays for another try.
    line.faults.push({ path: '/vouchers/find', fault: 'unsent' });
    expect(await failure(service.redeem(voucher.uuid))).toMatchObject({ kind: 'network' });
    expect(line.redeemRequests()).toEqual([]);
    expect(journal.get(voucher.uuid)).toMatchObject({ phase: 'locked', timesRedeemedBefore: null });

    expect(await service.redeem(voucher.uuid)).toMatchObject({ outcome: 'redeemed' });
    expect(line.redeemRequests()).toHaveLength(1);
  });

  it('never journals a redemption under way without its count', () => {
    const held = { voucherUuid: 'v', code: 'C', timesRedeemedBefore: null, releaseKey: 'k', lockedAt: 'a', systemReleaseAt: 'b' };
    expect(LockEntry.safeParse({ ...held, phase: 'locked' }).success).toBe(true);
    expect(LockEntry.safeParse({ ...held, phase: 'redeeming' }).success).toBe(false);
    expect(LockEntry.safeParse({ ...held, phase: 'settling' }).success).toBe(false);
    expect(LockEntry.safeParse({ ...held, phase: 'redeeming', timesRedeemedBefore: 2 }).success).toBe(true);
  });

  it('a count that arrives after the lock was let go does not bring its entry back', async () => {
    const voucher = await freshVoucher();
    const logs: LogLine[] = [];
    const { service, journal, line } = await kiosk({ logs, sideCount: true });
    line.faults.push({ path: '/vouchers/find', fault: 'gated' });
    await service.lock(known(voucher));
    expect(await service.release(voucher.uuid, 'cancel')).toMatchObject({ outcome: 'released' });
    line.openGate();
    await expect.poll(() => hasEvent(logs, 'voucher.count_unneeded', { voucherUuid: voucher.uuid })).toBe(true);
    expect(journal.entries()).toEqual([]);
  });
});

describe('refusals and lost locks', () => {
  it('reports a lock that lapsed before the redeem as lost, and redeems nothing', async () => {
    const voucher = await freshVoucher();
    const { service, journal } = await kiosk();
    await service.lock(voucher.code);
    await advanceClock(60 * 60 + 1);

    expect(await service.redeem(voucher.uuid)).toEqual({ outcome: 'lock_lost' });
    expect(await platformView(voucher.code)).toMatchObject({ status: 'ACTIVE', times_redeemed: 0 });
    expect(journal.entries()).toEqual([]);
  });

  it('throws a refusal with its platform code after releasing the lock', async () => {
    const now = Date.parse(await advanceClock(1));
    const voucher = await freshVoucher({ expiration_date: new Date(now + 120_000).toISOString() });
    const logs: LogLine[] = [];
    const { service, journal } = await kiosk({ logs });
    await service.lock(voucher.code);
    await advanceClock(180);

    expect(await failure(service.redeem(voucher.uuid))).toMatchObject({ kind: 'conflict', code: 80006 });
    expect(hasEvent(logs, 'voucher.released')).toBe(true);
    expect(await platformView(voucher.code)).toMatchObject({ status: 'EXPIRED', times_redeemed: 0 });
    expect(journal.entries()).toEqual([]);
  });
});

describe('the ledger', () => {
  const kinds = (ledger: Ledger, code: string) => ledger.rowsForCode(code).map(({ kind, reason, platformCode }) => ({ kind, reason, platformCode }));

  it('records the lock and the redemption, with the voucher, the promotion, the shopper’s contact and how they were known', async () => {
    const voucher = await freshVoucher();
    const { service, ledger } = await kiosk();
    await service.lock(voucher.code, { identifiedBy: 'email', contactUuid: contactUuid() });
    const result = await service.redeem(voucher.uuid);

    const rows = ledger.rowsForCode(voucher.code);
    expect(rows.map((row) => row.kind)).toEqual(['locked', 'redeemed']);
    expect(new Set(rows.map((row) => row.attemptId)).size).toBe(1);
    expect(rows[1]).toMatchObject({
      voucherUuid: voucher.uuid,
      voucherName: voucher.name,
      promotionName: voucher.promotion.name,
      contactUuid: contactUuid(),
      identifiedBy: 'email',
      settledBy: 'redeem',
      redemptionUuid: expect.any(String),
      redeemedAt: result.outcome === 'redeemed' ? result.redeemedAt : 'not redeemed',
    });
    // The shopper's proof for the till is the ledger row's (#31 §1).
    expect(result).toMatchObject({ proof: { code: rows[1]!.proofCode, seq: rows[1]!.seq, at: rows[1]!.at } });
  });

  it('records a cancel with its reason, and a refusal with the platform’s code', async () => {
    const cancelled = await freshVoucher();
    const { service, ledger } = await kiosk();
    await service.lock(cancelled.code);
    await service.release(cancelled.uuid, 'cancel');
    expect(kinds(ledger, cancelled.code)).toEqual([
      { kind: 'locked', reason: null, platformCode: null },
      { kind: 'released', reason: 'cancel', platformCode: null },
    ]);

    const now = Date.parse(await advanceClock(1));
    const expiring = await freshVoucher({ expiration_date: new Date(now + 120_000).toISOString() });
    await service.lock(expiring.code);
    await advanceClock(180);
    await failure(service.redeem(expiring.uuid));
    expect(kinds(ledger, expiring.code)).toEqual([
      { kind: 'locked', reason: null, platformCode: null },
      { kind: 'refused', reason: null, platformCode: '80006' },
      { kind: 'released', reason: 'refused', platformCode: null },
    ]);
  });

  it('records an unsettled redemption and how it settled', async () => {
    const voucher = await freshVoucher();
    const { service, ledger, line } = await kiosk();
    await service.lock(voucher.code);
    line.faults.push({ path: '/vouchers/redeem', fault: 'lost' }, { path: '/vouchers/find', fault: 'unsent' });
    expect(await service.redeem(voucher.uuid)).toEqual({ outcome: 'unsettled' });
    expect(await service.redeem(voucher.uuid)).toMatchObject({ outcome: 'redeemed' });
    expect(ledger.rowsForCode(voucher.code).map(({ kind, settledBy }) => [kind, settledBy])).toEqual([
      ['locked', null],
      ['unsettled', null],
      ['redeemed', 'find'],
    ]);
  });

  it('refuses to lock, sending nothing, while the ledger cannot be written', async () => {
    const voucher = await freshVoucher();
    const { service, line } = await kiosk({ ledger: { record: () => null, redeemedRowOf: () => null, assertWritable: () => { throw new LedgerUnavailable('the disk is full'); } } });
    await expect(service.lock(voucher.code)).rejects.toBeInstanceOf(LedgerUnavailable);
    expect(line.sent).toEqual([]);
  });

  it('keeps the journal entry of a redemption it could not record, and the next start records it once', async () => {
    const voucher = await freshVoucher();
    const logs: LogLine[] = [];
    const crashed = await kiosk({ logs });
    await crashed.service.lock(voucher.code);
    const failing = { record: crashed.ledger.record, redeemedRowOf: (attemptId: string) => crashed.ledger.redeemedRowOf(attemptId), assertWritable: () => {} };
    // The disk fills between the Redeem and its row.
    crashed.service.close();
    const full = await kiosk({
      dir: crashed.dir,
      logs,
      ledger: {
        ...failing,
        record: (entry) => {
          if (entry.kind === 'redeemed') throw new LedgerUnavailable('the disk is full');
          return failing.record(entry);
        },
      },
    });
    // Redeemed, but with no row there is no proof to show: the screen sends the shopper to staff.
    expect(await full.service.redeem(voucher.uuid)).toMatchObject({ outcome: 'redeemed', proof: null });
    expect(hasEvent(logs, 'voucher.ledger_row_missing', { kind: 'redeemed' })).toBe(true);
    expect((await journalOnDisk(crashed.dir)).map((entry) => entry.voucherUuid)).toEqual([voucher.uuid]);

    const restarted = await kiosk({ dir: crashed.dir });
    expect(await restarted.service.recover()).toEqual([{ voucherUuid: voucher.uuid, outcome: 'redeemed' }]);
    expect(await restarted.service.recover()).toEqual([]);
    expect(restarted.ledger.rowsForCode(voucher.code).map(({ kind, settledBy, reason }) => [kind, settledBy, reason])).toEqual([
      ['locked', null, null],
      ['redeemed', 'find', 'startup'],
    ]);
    expect(await journalOnDisk(crashed.dir)).toEqual([]);
  });
});

describe('recovery at startup', () => {
  it('releases a lock left by a crash before the redeem', async () => {
    const voucher = await freshVoucher();
    const crashed = await kiosk();
    await crashed.service.lock(voucher.code);

    const { service, journal } = await kiosk({ dir: crashed.dir });
    expect(await service.recover()).toEqual([{ voucherUuid: voucher.uuid, outcome: 'released' }]);
    expect((await platformView(voucher.code)).status).toBe('ACTIVE');
    expect(journal.entries()).toEqual([]);
    expect(await journalOnDisk(crashed.dir)).toEqual([]);
  });

  it.each([
    ['after the platform redeemed: reports it, without redeeming again', 'hang', 'redeemed', 'REDEEMED', 1],
    ['before the request left: releases, never redeeming unattended', 'stall', 'released', 'ACTIVE', 0],
  ] as const)('settles a crash while redeeming %s', async (_case, fault, outcome, status, timesRedeemed) => {
    const voucher = await freshVoucher();
    const crashed = await kiosk();
    await crashed.service.lock(voucher.code);
    crashed.line.faults.push({ path: '/vouchers/redeem', fault });
    void crashed.service.redeem(voucher.uuid);
    await vi.waitFor(async () => expect((await journalOnDisk(crashed.dir))[0]?.phase).toBe('redeeming'));
    if (fault === 'hang') await vi.waitFor(async () => expect((await platformView(voucher.code)).status).toBe('REDEEMED'));

    const { service, journal, line } = await kiosk({ dir: crashed.dir });
    expect(await service.recover()).toEqual([{ voucherUuid: voucher.uuid, outcome }]);
    expect(line.redeemRequests()).toEqual([]);
    expect(await platformView(voucher.code)).toMatchObject({ status, times_redeemed: timesRedeemed });
    expect(journal.entries()).toEqual([]);
  });

  it('starts empty over a corrupt journal, which it moves aside', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'redemption-journal-'));
    await writeFile(join(dir, DATA_FILES.voucherLocks), '{"version": 1, "entries": [{"voucherUuid"');
    const logs: LogLine[] = [];
    const { service } = await kiosk({ dir, logs });

    expect(await service.recover()).toEqual([]);
    expect(logs).toContainEqual(expect.objectContaining({ level: 'warn', fields: expect.objectContaining({ event: 'voucher.journal_set_aside' }) }));
    expect((await readdir(dir)).some((name) => name.startsWith(`${DATA_FILES.voucherLocks}.corrupt-`))).toBe(true);
    const voucher = await freshVoucher();
    await service.lock(voucher.code);
    expect(await journalOnDisk(dir)).toHaveLength(1);
  });
});

describe('releasing while offline', () => {
  it('keeps the lock journaled and releases it in the background once the platform is back', async () => {
    const voucher = await freshVoucher();
    const { service, journal, dir } = await kiosk();
    await service.lock(voucher.code);
    const port = Number(new URL(sandbox.baseUrl).port);
    await sandbox.close();

    expect(await service.release(voucher.uuid, 'cancel')).toEqual({ outcome: 'retrying' });
    expect(await journalOnDisk(dir)).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 150));
    sandbox = await startSandbox({ dataDir: sandboxDir, port });

    await vi.waitFor(async () => expect(await journalOnDisk(dir)).toEqual([]), { timeout: 5_000, interval: 20 });
    expect(journal.entries()).toEqual([]);
    expect((await platformView(voucher.code)).status).toBe('ACTIVE');
  });

  it('stops retrying once system_release_at has passed: the platform released it itself', async () => {
    const voucher = await freshVoucher();
    let clock = Date.now();
    const logs: LogLine[] = [];
    const { service, journal, line } = await kiosk({ now: () => clock, logs });
    await service.lock(voucher.code);
    line.offline = true;

    expect(await service.release(voucher.uuid, 'quit')).toEqual({ outcome: 'retrying' });
    await advanceClock(60 * 60 + 1);
    clock = Date.parse(heldEntry(journal.get(voucher.uuid)).systemReleaseAt) + 1;

    // Logged once the entry is off the disk.
    await vi.waitFor(() => expect(hasEvent(logs, 'voucher.lock_lapsed', { voucherUuid: voucher.uuid })).toBe(true), {
      timeout: 5_000,
      interval: 20,
    });
    expect(journal.entries()).toEqual([]);
    expect((await platformView(voucher.code)).status).toBe('ACTIVE');
  });
});

describe('a redemption that may have landed, once its lock is gone', () => {
  it('is never redeemed twice: cancelled while Find Voucher fails, the voucher is not locked again until Find settles it', async () => {
    const voucher = await freshVoucher({ total_redemptions_allowed: 3 });
    const { service, journal, line, dir } = await kiosk();
    await service.lock(voucher.code);
    // The redeem lands but its answer is lost, and Find Voucher fails too.
    line.faults.push({ path: '/vouchers/redeem', fault: 'lost' }, { path: '/vouchers/find', fault: 'unsent' });
    expect(await service.redeem(voucher.uuid)).toEqual({ outcome: 'unsettled' });

    // The shopper cancels, Find still failing: the release finds the lock consumed.
    line.faults.push({ path: '/vouchers/find', fault: 'unsent' });
    expect(await service.release(voucher.uuid, 'cancel')).toEqual({ outcome: 'lock_gone' });
    expect(await journalOnDisk(dir)).toEqual([expect.objectContaining({ voucherUuid: voucher.uuid, phase: 'settling' })]);

    // The shopper redeems again: Find Voucher now answers, and the use that landed is reported, not repeated.
    expect(await failure(service.lock(voucher.code))).toMatchObject({ kind: 'conflict', code: 80005 });
    expect(await platformView(voucher.code)).toMatchObject({ status: 'ACTIVE', times_redeemed: 1 });
    expect(line.redeemRequests()).toHaveLength(1);
    expect(journal.entries()).toEqual([]);
  });

  it('lets the voucher be locked again once Find Voucher shows the redemption never landed', async () => {
    const voucher = await freshVoucher({ total_redemptions_allowed: 3 });
    const { service, journal, line } = await kiosk();
    await service.lock(voucher.code);
    line.faults.push({ path: '/vouchers/redeem', fault: 'unsent' }, { path: '/vouchers/find', fault: 'unsent' });
    expect(await service.redeem(voucher.uuid)).toEqual({ outcome: 'unsettled' });
    // The lock lapses before the shopper cancels: the release cannot tell what became of the redeem.
    await advanceClock(60 * 60 + 1);
    line.faults.push({ path: '/vouchers/find', fault: 'unsent' });
    expect(await service.release(voucher.uuid, 'cancel')).toEqual({ outcome: 'lock_gone' });
    expect(journal.get(voucher.uuid)?.phase).toBe('settling');

    await service.lock(voucher.code);
    expect(journal.get(voucher.uuid)?.phase).toBe('locked');
    expect(await service.redeem(voucher.uuid)).toMatchObject({ outcome: 'redeemed', voucher: { times_redeemed: 1 } });
  });

  it('is settled at the next start', async () => {
    const voucher = await freshVoucher({ total_redemptions_allowed: 2 });
    const crashed = await kiosk();
    await crashed.service.lock(voucher.code);
    crashed.line.faults.push({ path: '/vouchers/redeem', fault: 'lost' }, { path: '/vouchers/find', fault: 'unsent' });
    await crashed.service.redeem(voucher.uuid);
    crashed.line.faults.push({ path: '/vouchers/find', fault: 'unsent' });
    await crashed.service.release(voucher.uuid, 'cancel');

    const { service, journal } = await kiosk({ dir: crashed.dir });
    expect(await service.recover()).toEqual([{ voucherUuid: voucher.uuid, outcome: 'redeemed' }]);
    expect(journal.entries()).toEqual([]);
  });
});

describe('a second confirm while a redeem is in flight', () => {
  it('answers busy at once instead of queueing a second redeem', async () => {
    const voucher = await freshVoucher();
    const { service, line } = await kiosk();
    await service.lock(voucher.code);
    line.faults.push({ path: '/vouchers/redeem', fault: 'stall' });
    void service.redeem(voucher.uuid);

    const second = await Promise.race([service.redeem(voucher.uuid).catch((error: unknown) => error), sleep(1_000, 'queued')]);
    expect(second).toBeInstanceOf(RedemptionInFlight);
    expect(second).toMatchObject({ kind: 'busy' });
    expect(line.redeemRequests()).toHaveLength(0);
  });
});

describe('locks the journal would not know of', () => {
  it('journals an intent before the Lock request; a lost answer keeps it, and the voucher is not locked again', async () => {
    const voucher = await freshVoucher();
    const logs: LogLine[] = [];
    const { service, journal, line, dir } = await kiosk({ logs });
    line.faults.push({ path: '/lock', fault: 'lost' });

    expect(await failure(service.lock(voucher.code))).toMatchObject({ kind: 'network' });
    expect(await journalOnDisk(dir)).toEqual([
      {
        voucherUuid: voucher.uuid,
        code: voucher.code,
        timesRedeemedBefore: null,
        attemptId: expect.any(String),
        voucherName: voucher.name,
        promotionName: voucher.promotion.name,
        identifiedBy: null,
        phase: 'locking',
        intendedAt: expect.any(String),
      },
    ]);
    expect((await platformView(voucher.code)).status).toBe('LOCKED');
    // No key: nothing this kiosk could release, and locking again is refused while it may hold it.
    expect(await service.release(voucher.uuid, 'cancel')).toEqual({ outcome: 'not_held' });
    expect(await failure(service.lock(voucher.code))).toMatchObject({ kind: 'conflict', code: 80017 });
    expect(await service.recover()).toEqual([{ voucherUuid: voucher.uuid, outcome: 'kept' }]);
    expect(logs).toContainEqual(expect.objectContaining({ level: 'warn', fields: expect.objectContaining({ event: 'voucher.lock_answer_lost', voucherUuid: voucher.uuid }) }));

    // The platform's own release, an hour on, settles it: the voucher serves again.
    await advanceClock(60 * 60 + 1);
    expect(await service.recover()).toEqual([{ voucherUuid: voucher.uuid, outcome: 'lock_gone' }]);
    expect(journal.entries()).toEqual([]);
    await service.lock(voucher.code);
    expect(await service.redeem(voucher.uuid)).toMatchObject({ outcome: 'redeemed' });
  });

  it('forgets an intent at the next start when Find Voucher shows the Lock never landed', async () => {
    const voucher = await freshVoucher();
    const crashed = await kiosk();
    crashed.line.faults.push({ path: '/lock', fault: 'stall' });
    void crashed.service.lock(voucher.code);
    await vi.waitFor(async () => expect((await journalOnDisk(crashed.dir))[0]?.phase).toBe('locking'));

    const { service, journal } = await kiosk({ dir: crashed.dir });
    expect(await service.recover()).toEqual([{ voucherUuid: voucher.uuid, outcome: 'lock_gone' }]);
    expect(journal.entries()).toEqual([]);
    expect((await platformView(voucher.code)).status).toBe('ACTIVE');
  });

  it('drops the intent of a Lock the platform refused', async () => {
    const voucher = await freshVoucher();
    await admin.updateVoucher({ voucher_uuid: voucher.uuid, status: 'DEACTIVATED' });
    const { service, journal } = await kiosk();
    expect(await failure(service.lock(voucher.code))).toMatchObject({ kind: 'conflict', code: 80012 });
    expect(journal.entries()).toEqual([]);
  });

  it('keeps the intent of a Lock refused as locked: the lock in the way may be its own, carried out late', async () => {
    const voucher = await freshVoucher();
    const { service, journal } = await kiosk();
    // Find sees the voucher free; the earlier Lock whose answer was lost lands just before this one.
    let lateLockLanded = false;
    const findThenLateLock = async (input: { code: string }) => {
      const found = await admin.findVoucher(input);
      if (!lateLockLanded) await admin.lockVoucher({ voucher_uuid: voucher.uuid });
      lateLockLanded = true;
      return found;
    };
    const racing = createRedemptionService({ client: { ...admin, findVoucher: findThenLateLock }, journal, ledger: testLedger(await mkdtemp(join(tmpdir(), 'racing-'))), shopUuid });
    services.push(racing);
    expect(await failure(racing.lock(voucher.code))).toMatchObject({ kind: 'conflict', code: 80017 });
    expect(journal.get(voucher.uuid)?.phase).toBe('locking');
    expect(await service.release(voucher.uuid, 'cancel')).toEqual({ outcome: 'not_held' });
  });

  it('reconciles each lock still legible in a truncated journal instead of forgetting them', async () => {
    const [first, second] = [await freshVoucher(), await freshVoucher()];
    const crashed = await kiosk();
    await crashed.service.lock(first.code);
    await crashed.service.lock(second.code);
    const text = await readFile(join(crashed.dir, DATA_FILES.voucherLocks), 'utf8');
    const secondKey = heldEntry(crashed.journal.get(second.uuid)).releaseKey;
    await writeFile(join(crashed.dir, DATA_FILES.voucherLocks), text.slice(0, text.indexOf(secondKey) + 4));

    const { service, journal } = await kiosk({ dir: crashed.dir });
    expect(await service.recover()).toEqual([
      { voucherUuid: first.uuid, outcome: 'released' },
      // Its key is lost: only the platform's own release frees it; until then it is kept.
      { voucherUuid: second.uuid, outcome: 'kept' },
    ]);
    expect((await platformView(first.code)).status).toBe('ACTIVE');
    expect(journal.entries()).toEqual([expect.objectContaining({ voucherUuid: second.uuid, phase: 'locking' })]);
    expect((await readdir(crashed.dir)).some((name) => name.startsWith(`${DATA_FILES.voucherLocks}.corrupt-`))).toBe(true);
  });
  it('answers redeemed when the redemption landed but the journal could not be written (disk full)', async () => {
    const voucher = await freshVoucher();
    const dir = await mkdtemp(join(tmpdir(), 'full-disk-'));
    const journal = await openLockJournal({ dir, logger: silentLogger });
    const fullDisk = { ...journal, remove: async () => Promise.reject(new Error('ENOSPC: no space left on device')) };
    const service = createRedemptionService({ client: admin, journal: fullDisk, ledger: testLedger(dir), shopUuid });
    services.push(service);
    await service.lock(voucher.code);
    expect(await service.redeem(voucher.uuid)).toMatchObject({ outcome: 'redeemed' });
    expect((await platformView(voucher.code)).times_redeemed).toBe(1);
  });

  it('refuses to lock again while a redemption that may have landed is being settled (a late redeem lands during the relock)', async () => {
    const voucher = await freshVoucher({ total_redemptions_allowed: 3 });
    let lateRedeem: Parameters<LoyaltyClient['redeemVoucher']>[0] | null = null;
    let findFails = false;
    const client: LoyaltyClient = {
      ...admin,
      // Confirm #1: the request is held in the network (the kiosk times out), and Find fails too.
      redeemVoucher: async (input) => {
        if (lateRedeem === null) {
          lateRedeem = input;
          findFails = true;
          throw new LoyaltyError({ kind: 'timeout', message: 'no answer in time' });
        }
        return admin.redeemVoucher(input);
      },
      findVoucher: async (input) => {
        if (findFails) {
          findFails = false;
          throw new LoyaltyError({ kind: 'network', message: 'unreachable' });
        }
        return admin.findVoucher(input);
      },
      // The held redeem reaches the platform just before the relock's release does.
      releaseVoucher: async (input) => {
        if (lateRedeem) await admin.redeemVoucher(lateRedeem);
        return admin.releaseVoucher(input);
      },
    };
    const dir = await mkdtemp(join(tmpdir(), 'late-redeem-'));
    const service = createRedemptionService({ client, journal: await openLockJournal({ dir, logger: silentLogger }), ledger: testLedger(dir), shopUuid, redeemAttempts: 1, redeemRetryDelayMs: 1 });
    services.push(service);

    await service.lock(voucher.code);
    expect(await service.redeem(voucher.uuid)).toEqual({ outcome: 'unsettled' });
    expect(await failure(service.lock(voucher.code))).toMatchObject({ code: 80017 });
    expect((await platformView(voucher.code)).times_redeemed).toBe(1);
    // Once Find Voucher shows the landed redemption, the kiosk says so instead of locking again.
    expect(await failure(service.lock(voucher.code))).toMatchObject({ code: 80005 });
    expect((await platformView(voucher.code)).times_redeemed).toBe(1);
  });

  it('looks up a uuid the damaged journal kept without its code among the locked vouchers, instead of forgetting it', async () => {
    const [locked, free] = [await freshVoucher(), await freshVoucher()];
    const crashed = await kiosk();
    await crashed.service.lock(locked.code);
    const { releaseKey } = heldEntry(crashed.journal.get(locked.uuid));
    // Two entries cut right after their uuids: one voucher really locked, one free.
    const cut = (uuid: string) => `{"voucherUuid": "${uuid}", "co`;
    await writeFile(join(crashed.dir, DATA_FILES.voucherLocks), `{"version": 1, "entries": [${cut(locked.uuid)}, ${cut(free.uuid)}`);

    const { service, journal } = await kiosk({ dir: crashed.dir });
    expect(journal.unresolved().sort()).toEqual([locked.uuid, free.uuid].sort());
    // Found LOCKED: an intent with its code, kept until the platform frees it, and not locked again.
    expect(await service.recover()).toEqual([{ voucherUuid: locked.uuid, outcome: 'kept' }]);
    expect(journal.unresolved()).toEqual([]);
    expect(journal.get(locked.uuid)).toMatchObject({ phase: 'locking', code: locked.code });
    expect(journal.get(free.uuid)).toBeUndefined();
    expect(await failure(service.lock(locked.code))).toMatchObject({ code: 80017 });
    // Once the lock is gone (here: released with the key the test kept), the intent settles.
    await admin.releaseVoucher({ voucher_uuid: locked.uuid, release_key: releaseKey });
    expect(await service.recover()).toEqual([{ voucherUuid: locked.uuid, outcome: 'lock_gone' }]);
    expect(journal.entries()).toEqual([]);
  });
});
