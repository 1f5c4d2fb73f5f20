import { describe, expect, it } from 'vitest';
import type { VoucherWithRedemptions } from '../../api/vouchers.std.ts';
import { ledgerAttempt } from '../../test/support/factories.std.ts';
import { checkVoucher, type VoucherFacts } from './voucher-check.std.ts';

const REDEEMED_AT = '2026-11-27T10:00:00+00:00';

const facts = (overrides: Partial<VoucherFacts> = {}): VoucherFacts => ({
  voucherUuid: 'uuid-COFFEE',
  voucherCode: 'COFFEE',
  voucherName: 'Free coffee',
  redemptions: 1,
  lastRedeemedAt: '2026-11-27T10:00:00.000Z',
  openAttempts: [],
  ...overrides,
});

/** Only the fields the check reads matter; the rest of the platform's voucher is not looked at. */
const platform = (times: number, allowed = 1, redeemedAt: string | null = times > 0 ? REDEEMED_AT : null) =>
  ({ times_redeemed: times, total_redemptions_allowed: allowed, redeemed_at: redeemedAt }) as VoucherWithRedemptions;

describe('a voucher checked against the platform (#30 §3)', () => {
  it('agrees when the platform counts the redemptions the ledger has, or more (a till may redeem too)', () => {
    expect(checkVoucher(facts(), platform(1))).toEqual({ mismatch: null, settled: [] });
    expect(checkVoucher(facts({ redemptions: 2, lastRedeemedAt: null }), platform(5, 10))).toEqual({ mismatch: null, settled: [] });
  });

  it('finds a redemption the platform does not count, a code it does not know, and a time it tells otherwise', () => {
    expect(checkVoucher(facts(), platform(0)).mismatch).toEqual({
      kind: 'fewer_at_platform',
      voucherCode: 'COFFEE',
      voucherName: 'Free coffee',
      ledgerRedemptions: 1,
      platformRedemptions: 0,
      ledgerRedeemedAt: '2026-11-27T10:00:00.000Z',
      platformRedeemedAt: null,
    });
    expect(checkVoucher(facts(), null).mismatch).toMatchObject({ kind: 'unknown_at_platform', platformRedemptions: null });
    expect(checkVoucher(facts(), platform(1, 1, '2026-11-27T10:00:02+00:00')).mismatch).toMatchObject({ kind: 'time_differs' });
    // Written to the second by one side: within a second is the same moment. A multi-use voucher's time is its newest redemption's anywhere.
    expect(checkVoucher(facts(), platform(1, 1, '2026-11-27T10:00:00.900+00:00')).mismatch).toBeNull();
    expect(checkVoucher(facts(), platform(3, 5, '2026-11-28T10:00:00+00:00')).mismatch).toBeNull();
  });

  it('settles open attempts oldest first: each landed while the platform counts more than the ledger', () => {
    const [first, second] = [ledgerAttempt('COFFEE', { attemptId: 'a1' }), ledgerAttempt('COFFEE', { attemptId: 'a2' })];
    const check = checkVoucher(facts({ redemptions: 1, openAttempts: [first, second] }), platform(2, 5));
    expect(check.settled).toEqual([
      { attempt: first, landed: true, redeemedAt: REDEEMED_AT },
      { attempt: second, landed: false, redeemedAt: null },
    ]);
    expect(check.mismatch).toBeNull();
    // Only an open attempt, and a code the platform does not know: it never landed, and nothing disagrees.
    expect(checkVoucher(facts({ redemptions: 0, lastRedeemedAt: null, openAttempts: [first] }), null)).toEqual({
      mismatch: null,
      settled: [{ attempt: first, landed: false, redeemedAt: null }],
    });
  });
});
