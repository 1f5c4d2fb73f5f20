import type { VoucherWithRedemptions } from '../../api/vouchers.std.ts';
import type { Mismatch } from '../../common/report-views.std.ts';
import type { AttemptFacts } from './ledger-events.std.ts';

/** What the ledger knows of one voucher a shift redeemed (or tried to), for its check against the platform. */
export interface VoucherFacts {
  voucherUuid: string;
  voucherCode: string;
  voucherName: string | null;
  /** Its `redeemed` rows, every shift kept. */
  redemptions: number;
  /** The platform's time of its newest `redeemed` row, when the Redeem answered it. */
  lastRedeemedAt: string | null;
  /** Attempts locked in the shift with no ending yet, oldest first, and no longer in the lock journal. */
  openAttempts: AttemptFacts[];
}

export interface VoucherCheck {
  mismatch: Mismatch | null;
  /** Each open attempt, settled: landed (the platform counts a redemption the ledger lacks) or not. */
  settled: Array<{ attempt: AttemptFacts; landed: boolean; redeemedAt: string | null }>;
}

/** A redemption's time may be written to the second by one side and to the millisecond by the other. */
const SAME_TIME_MS = 1_000;

/**
 * The ledger's account of a voucher against the platform's (`found`; null: the platform does not
 * know the code). Open attempts settle first: each landed if the platform counts more redemptions
 * than the ledger has rows. Then a mismatch is what is left: fewer redemptions at the platform
 * than in the ledger, or a single-use voucher the platform dates otherwise. More at the platform is
 * no mismatch: a till or another kiosk may have redeemed it too.
 */
export function checkVoucher(facts: VoucherFacts, found: VoucherWithRedemptions | null): VoucherCheck {
  let unrecorded = found ? found.times_redeemed - facts.redemptions : 0;
  const settled = facts.openAttempts.map((attempt) => {
    const landed = unrecorded > 0;
    if (landed) unrecorded--;
    return { attempt, landed, redeemedAt: landed ? (found?.redeemed_at ?? null) : null };
  });
  const redemptions = facts.redemptions + settled.filter(({ landed }) => landed).length;
  const mismatch = (kind: Mismatch['kind']): Mismatch => ({
    kind,
    voucherCode: facts.voucherCode,
    voucherName: facts.voucherName,
    ledgerRedemptions: redemptions,
    platformRedemptions: found?.times_redeemed ?? null,
    ledgerRedeemedAt: facts.lastRedeemedAt,
    platformRedeemedAt: found?.redeemed_at ?? null,
  });
  if (redemptions === 0) return { mismatch: null, settled };
  if (!found) return { mismatch: mismatch('unknown_at_platform'), settled };
  if (found.times_redeemed < redemptions) return { mismatch: mismatch('fewer_at_platform'), settled };
  return { mismatch: datedOtherwise(facts.lastRedeemedAt, found) ? mismatch('time_differs') : null, settled };
}

/** A single-use voucher whose one redemption the platform dates more than a second away from the Redeem's answer. */
function datedOtherwise(ledgerAt: string | null, found: VoucherWithRedemptions): boolean {
  if (found.total_redemptions_allowed !== 1 || ledgerAt === null || found.redeemed_at === null) return false;
  return Math.abs(Date.parse(ledgerAt) - Date.parse(found.redeemed_at)) > SAME_TIME_MS;
}
