import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/sandbox.node.ts';
import { hasEvent, ledgerAttempt, recordingLogger, type LogLine } from '../../test/support/factories.std.ts';
import { closeTestLedgers, testLedger } from '../../test/support/ledger.node.ts';
import { createLoyaltyClient, type LoyaltyClient } from '../loyalty/client.node.ts';
import { LoyaltyError } from '../loyalty/errors.std.ts';
import { credentialsByScheme } from '../loyalty/request.std.ts';
import type { Ledger } from './ledger.node.ts';
import { RECONCILE_RETRY_MS, Reconciler, type ReconcilerOptions } from './reconciler.node.ts';

let sandbox: RunningSandbox;
let sandboxDir: string;
let platform: LoyaltyClient;
const scratch: string[] = [];
const reconcilers: Reconciler[] = [];

beforeAll(async () => {
  sandboxDir = await mkdtemp(join(tmpdir(), 'reconcile-sandbox-'));
  sandbox = await startSandbox({ dataDir: sandboxDir, port: 0 });
  platform = createLoyaltyClient({ baseUrl: sandbox.baseUrl, credentials: async () => credentialsByScheme(sandbox.manifest.credentials) });
});
afterEach(() => {
  for (const reconciler of reconcilers.splice(0)) reconciler.close();
  closeTestLedgers();
});
afterAll(async () => {
  await sandbox?.close();
  await Promise.all([sandboxDir, ...scratch].map((dir) => rm(dir, { recursive: true, force: true })));
});

async function ledgerDir() {
  const dir = await mkdtemp(join(tmpdir(), 'reconcile-ledger-'));
  scratch.push(dir);
  return dir;
}

async function newVoucher(total_redemptions_allowed = 1) {
  const { data } = await platform.createVoucher({ promotion_uuid: sandbox.manifest.promotions[0]!.uuid, contact_uuid: sandbox.manifest.contacts[0]!.uuid, total_redemptions_allowed });
  return data;
}

/** Redeemed at the platform, as the kiosk's Redeem would; answers the platform's time of it. */
async function redeemAtPlatform(code: string) {
  const { data } = await platform.redeemVoucher({ code, shop_uuid: sandbox.manifest.shops[0]!.uuid, contact_uuid: sandbox.manifest.contacts[0]!.uuid });
  return data.voucher_redemption.created_at;
}

/** The kiosk's rows of a redemption that ended as the Redeem answered. */
function recordRedeemed(ledger: Ledger, voucher: { uuid: string; code: string }, redeemedAt: string | null, attemptId = `attempt-${voucher.code}`) {
  const attempt = ledgerAttempt(voucher.code, { voucherUuid: voucher.uuid, attemptId });
  ledger.record({ kind: 'locked', attempt });
  ledger.record({ kind: 'redeemed', attempt, settledBy: 'redeem', redeemedAt });
}

/** A Find Voucher that counts its lookups and can be told to fail like a platform that went away. */
function findOnPlatform() {
  const find = {
    looked: [] as string[],
    away: false,
    voucher: async (code: string) => {
      find.looked.push(code);
      if (find.away) throw new LoyaltyError({ kind: 'network', operation: 'findVoucher', message: 'The loyalty platform could not be reached' });
      return (await platform.findVoucher({ code })).data;
    },
  };
  return find;
}

/** Waits that resolve at once, each one kept: the reconciler's clock. `hold` keeps the retry waits pending. */
function fakeWaits({ hold = false } = {}) {
  const waits: number[] = [];
  return { waits, wait: (ms: number) => (waits.push(ms), hold && ms === RECONCILE_RETRY_MS ? new Promise<void>(() => {}) : Promise.resolve()) };
}

function reconcilerFor(ledger: Ledger, overrides: Partial<ReconcilerOptions> = {}, logs: LogLine[] = []) {
  const reconciler = new Reconciler({
    ledger,
    findVoucher: findOnPlatform().voucher,
    heldVouchers: () => new Set(),
    whenIdle: () => Promise.resolve(true),
    wait: fakeWaits().wait,
    logger: recordingLogger(logs).logger,
    ...overrides,
  });
  reconcilers.push(reconciler);
  return reconciler;
}

async function rateLimitNext(requests: number, retryAfterSeconds: number) {
  const response = await fetch(`${sandbox.baseUrl}/_sandbox/rate-limit`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${sandbox.manifest.credentials.api_key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ requests, retry_after: retryAfterSeconds }),
  });
  expect(response.status).toBe(200);
}

describe('reconciling a shift with the platform (#30 §3)', () => {
  it('after each Z checks every voucher the shift redeemed by Find, and keeps each mismatch beside the Z', async () => {
    const ledger = testLedger(await ledgerDir());
    const [agreed, notRedeemed, otherTime] = [await newVoucher(), await newVoucher(), await newVoucher()];
    recordRedeemed(ledger, agreed, await redeemAtPlatform(agreed.code));
    recordRedeemed(ledger, notRedeemed, new Date().toISOString()); // the platform never counted this one
    await redeemAtPlatform(otherTime.code);
    recordRedeemed(ledger, otherTime, '2026-01-01T00:00:00.000Z');
    recordRedeemed(ledger, { uuid: 'uuid-gone', code: 'NO-SUCH-CODE' }, null);
    const logs: LogLine[] = [];
    const reconciler = reconcilerFor(ledger, {}, logs);

    const z = ledger.closeShift();
    expect(z.reconciliation).toMatchObject({ state: 'pending', checked: 0, vouchers: 4 });
    await reconciler.run();

    const kept = ledger.zReport(z.zNumber!)!;
    expect(kept.redemptions).toBe(4);
    expect(kept.reconciliation).toMatchObject({ state: 'done', checked: 4, vouchers: 4, resolved: 0 });
    const expected = [
      ['fewer_at_platform', notRedeemed.code],
      ['time_differs', otherTime.code],
      ['unknown_at_platform', 'NO-SUCH-CODE'],
    ].sort(([, a], [, b]) => a!.localeCompare(b!));
    expect(kept.reconciliation!.mismatches.map(({ kind, voucherCode }) => [kind, voucherCode])).toEqual(expected);
    expect(ledger.status().reconciliation).toEqual({ mismatches: 3, unreconciledShifts: 0 });
    expect(hasEvent(logs, 'ledger.reconciled', { mismatches: 3 })).toBe(true);
  });

  it('settles an attempt the ledger left open by what the platform counts, unless the lock journal still holds it', async () => {
    const ledger = testLedger(await ledgerDir());
    const [landed, never, journaled] = [await newVoucher(), await newVoucher(), await newVoucher()];
    for (const voucher of [landed, never, journaled]) ledger.record({ kind: 'locked', attempt: ledgerAttempt(voucher.code, { voucherUuid: voucher.uuid }) });
    const landedAt = await redeemAtPlatform(landed.code);
    const reconciler = reconcilerFor(ledger, { heldVouchers: () => new Set([journaled.uuid]) });

    const z = ledger.closeShift();
    await reconciler.run();

    expect(ledger.rowsForCode(landed.code).map(({ kind, settledBy, reason, redeemedAt }) => ({ kind, settledBy, reason, redeemedAt }))).toEqual([
      { kind: 'locked', settledBy: null, reason: null, redeemedAt: null },
      { kind: 'redeemed', settledBy: 'find', reason: 'reconciled', redeemedAt: landedAt },
    ]);
    expect(ledger.rowsForCode(never.code).map(({ kind, reason }) => [kind, reason])).toEqual([['locked', null], ['released', 'reconciled']]);
    expect(ledger.rowsForCode(journaled.code).map(({ kind }) => kind)).toEqual(['locked']);
    // A correction is a new row, in the shift open now; the Z's totals never change.
    expect(ledger.rowsForCode(landed.code)[1]!.shift).toBe(z.shift + 1);
    expect(ledger.zReport(z.zNumber!)).toMatchObject({ redemptions: 0, reconciliation: { state: 'done', resolved: 2, mismatches: [] } });
  });

  it("waits out the platform's 429 for as long as it asks, then goes on", async () => {
    const ledger = testLedger(await ledgerDir());
    const voucher = await newVoucher();
    recordRedeemed(ledger, voucher, await redeemAtPlatform(voucher.code));
    const clock = fakeWaits();
    const reconciler = reconcilerFor(ledger, { wait: clock.wait });
    ledger.closeShift();

    // Longer than the client waits out by itself with a shopper in front of it: the reconciler's to wait.
    await rateLimitNext(1, 30);
    await reconciler.run();
    expect(clock.waits).toEqual([30_000]);
    expect(ledger.zReport(1)!.reconciliation).toMatchObject({ state: 'done', checked: 1, mismatches: [] });
  });

  it('goes on after a restart from the voucher it had reached, and only checks while the kiosk is idle', async () => {
    const dir = await ledgerDir();
    const ledger = testLedger(dir);
    const vouchers = [await newVoucher(), await newVoucher(), await newVoucher()];
    for (const voucher of vouchers) recordRedeemed(ledger, voucher, await redeemAtPlatform(voucher.code));
    ledger.closeShift();

    // The platform goes away after the first lookup: the check pauses, and is tried again later.
    const first = findOnPlatform();
    const clock = fakeWaits({ hold: true });
    const paused = reconcilerFor(ledger, { wait: clock.wait, findVoucher: async (code) => first.voucher(code).finally(() => (first.away = true)) });
    await paused.run();
    expect(first.looked).toHaveLength(2);
    expect(clock.waits).toEqual([RECONCILE_RETRY_MS]);
    expect(ledger.zReport(1)!.reconciliation).toMatchObject({ state: 'pending', checked: 1, vouchers: 3 });
    expect(ledger.status().reconciliation.unreconciledShifts).toBe(1);
    paused.close();
    ledger.close();

    // The next start: the two left, and nothing before the kiosk is idle.
    const reopened = testLedger(dir);
    const next = findOnPlatform();
    let idle!: (idle: boolean) => void;
    const whenIdle = new Promise<boolean>((resolve) => (idle = resolve));
    const resumed = reconcilerFor(reopened, { findVoucher: next.voucher, whenIdle: () => whenIdle });
    const done = resumed.run();
    await Promise.resolve();
    expect(next.looked).toEqual([]);
    idle(true);
    await done;
    // The voucher checked before the platform went away is not looked up again.
    expect(next.looked.toSorted()).toEqual(vouchers.map((voucher) => voucher.code).filter((code) => code !== first.looked[0]).toSorted());
    expect(reopened.zReport(1)!.reconciliation).toMatchObject({ state: 'done', checked: 3, vouchers: 3, mismatches: [] });
    expect(reopened.status().reconciliation).toEqual({ mismatches: 0, unreconciledShifts: 0 });
  });

  it('never throws at the Z or the start that nudged it: a ledger that fails is logged, and tried again later', async () => {
    const ledger = testLedger(await ledgerDir());
    const voucher = await newVoucher();
    recordRedeemed(ledger, voucher, await redeemAtPlatform(voucher.code));
    ledger.closeShift();
    ledger.close();
    const logs: LogLine[] = [];
    const clock = fakeWaits({ hold: true });
    await expect(reconcilerFor(ledger, { wait: clock.wait }, logs).run()).resolves.toBeUndefined();
    expect(hasEvent(logs, 'ledger.reconcile_failed')).toBe(true);
    expect(clock.waits).toEqual([RECONCILE_RETRY_MS]);
  });

  it('checks the open shift on demand for the console, keeping nothing: its Z is checked again', async () => {
    const ledger = testLedger(await ledgerDir());
    const voucher = await newVoucher();
    recordRedeemed(ledger, voucher, new Date().toISOString());
    const reconciler = reconcilerFor(ledger);

    await expect(reconciler.checkOpenShift()).resolves.toMatchObject({ state: 'done', checked: 1, vouchers: 1, mismatches: [{ kind: 'fewer_at_platform', voucherCode: voucher.code }] });
    expect(ledger.shiftsToReconcile()).toEqual([]);
    expect(ledger.status().reconciliation.mismatches).toBe(0);
    ledger.closeShift();
    await reconciler.run();
    expect(ledger.zReport(1)!.reconciliation).toMatchObject({ state: 'done', checked: 1, mismatches: [{ kind: 'fewer_at_platform' }] });
  });
});
