import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseCsv } from 'csv-parse/sync';
import { silentLogger } from '../logging/logger.std.ts';
import { closeTestLedgers, testLedger } from '../../test/support/ledger.node.ts';
import { ledgerAttempt } from '../../test/support/factories.std.ts';
import { calls } from '../../common/contract.std.ts';
import { LoyaltyError } from '../loyalty/errors.std.ts';
import { Reconciler } from '../ledger/reconciler.node.ts';
import { createReportHandlers } from './report-handlers.node.ts';

afterEach(() => closeTestLedgers());

/** A platform that knows no voucher: every redemption the ledger has is a mismatch. */
const platformKnowingNothing = async (): Promise<never> => {
  throw new LoyaltyError({ kind: 'not_found', operation: 'findVoucher', message: 'Voucher not found' });
};

function reportsOn({ locks = 0 } = {}) {
  const ledger = testLedger(fs.mkdtempSync(path.join(os.tmpdir(), 'report-handlers-')), { now: () => Date.parse('2026-11-27T12:00:00Z') });
  const reconciler = new Reconciler({
    ledger,
    findVoucher: platformKnowingNothing,
    heldVouchers: () => new Set(),
    whenIdle: async () => true,
    wait: async () => {},
    logger: silentLogger,
  });
  const attempt = ledgerAttempt('COFFEE-1');
  ledger.record({ kind: 'locked', attempt });
  ledger.record({ kind: 'redeemed', attempt, settledBy: 'redeem' });
  const delivered: Array<{ fileName: string; content: string }> = [];
  const handlers = createReportHandlers({
    ledger,
    reconciler,
    locksHeld: () => locks,
    deliver: async (fileName, content) => {
      delivered.push({ fileName, content });
      return { fileName, content, delivery: 'download' as const };
    },
    logger: silentLogger,
    now: () => Date.parse('2026-11-27T18:00:00Z'),
  });
  return { handlers, ledger, delivered, attempt };
}

describe('the console\'s report calls (#30 §2, §4)', () => {
  it('answers the X, closes a shift into a Z the list and getZReport then show, and says which Z does not exist', async () => {
    const { handlers } = reportsOn();
    expect(await handlers.getXReport()).toMatchObject({ kind: 'x', redemptions: 1 });
    const z = await handlers.closeShift();
    expect(z).toMatchObject({ kind: 'z', zNumber: 1, redemptions: 1 });
    expect(await handlers.listZReports()).toEqual([expect.objectContaining({ zNumber: 1, redemptions: 1 })]);
    expect(await handlers.getZReport({ zNumber: 1 })).toEqual(z);
    await expect(handlers.getZReport({ zNumber: 2 })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses a Z while a voucher lock is held, and closes nothing', async () => {
    const { handlers } = reportsOn({ locks: 1 });
    await expect(handlers.closeShift()).rejects.toMatchObject({ code: 'busy' });
    expect(await handlers.listZReports()).toEqual([]);
  });

  it('finds a voucher\'s events without the shopper, and hands out the shift\'s CSV', async () => {
    const { handlers, delivered, attempt } = reportsOn();
    const found = await handlers.findRedemptions({ code: 'COFFEE-1' });
    expect(found.map((event) => event.kind)).toEqual(['locked', 'redeemed']);
    expect(JSON.stringify(found)).not.toContain(attempt.contactUuid!);
    await handlers.exportLedgerCsv({});
    expect(delivered[0]!.fileName).toBe('loyalty-kiosk-shift-1-2026-11-27.csv');
    expect((parseCsv(delivered[0]!.content, { columns: true }) as Array<{ kind: string }>).map((row) => row.kind)).toEqual(['locked', 'redeemed']);
  });

  it('hands out the CSV of a range of business days, and the contract refuses a range that runs backwards (#30 §2)', async () => {
    const { handlers, delivered } = reportsOn();
    await handlers.exportLedgerCsv({ fromDay: '2026-11-27', toDay: '2026-11-30' });
    expect(delivered[0]!.fileName).toBe('loyalty-kiosk-2026-11-27-to-2026-11-30.csv');
    expect(parseCsv(delivered[0]!.content, { columns: true })).toHaveLength(2);
    await handlers.exportLedgerCsv({ fromDay: '2026-11-28', toDay: '2026-11-30' });
    expect(parseCsv(delivered[1]!.content, { columns: true })).toHaveLength(0);

    const input = calls.exportLedgerCsv.input;
    expect(input.safeParse({ fromDay: '2026-11-30', toDay: '2026-11-27' }).success).toBe(false);
    expect(input.safeParse({ fromDay: '27-11-2026', toDay: '2026-11-30' }).success).toBe(false);
    expect(input.safeParse({ fromDay: '2026-11-27', toDay: '2026-11-30', shift: 1 }).success).toBe(false);
  });

  it("finds a redemption by its proof code, as typed or scanned from the slip, and nothing for a made-up one (#31 §1)", async () => {
    const { handlers, ledger, attempt } = reportsOn();
    const proof = ledger.redeemedRowOf(attempt.attemptId)!.proofCode!;
    const found = await handlers.findRedemptions({ code: proof });
    expect(found.map(({ kind, voucherCode, proofCode }) => [kind, voucherCode, proofCode])).toEqual([
      ['locked', 'COFFEE-1', null],
      ['redeemed', 'COFFEE-1', proof],
    ]);
    // Well formed, check digit and all, but never made here: not genuine.
    await expect(handlers.findRedemptions({ code: '0000005724' })).resolves.toEqual([]);
  });

  it('checks the open shift against the platform on demand: the X with each mismatch (#30 §3)', async () => {
    const { handlers } = reportsOn();
    const x = await handlers.reconcileOpenShift();
    expect(x).toMatchObject({ kind: 'x', redemptions: 1, reconciliation: { state: 'done', checked: 1, vouchers: 1 } });
    expect(x.reconciliation!.mismatches).toEqual([expect.objectContaining({ kind: 'unknown_at_platform', voucherCode: 'COFFEE-1' })]);
  });
});
