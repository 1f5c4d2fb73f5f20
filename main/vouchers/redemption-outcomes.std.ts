import type { VoucherWithRedemptions } from '../../api/vouchers.std.ts';
import type { RedemptionProof } from '../../common/shopper-views.std.ts';

/** What the redemption service answers, shared by its steps (redemption-service.node.ts). */

export interface Redeemed {
  outcome: 'redeemed';
  voucher: VoucherWithRedemptions;
  redeemedAt: string;
  /** What the shopper shows at the till: the ledger row's proof code and number; null when the ledger could not take the row. */
  proof: RedemptionProof | null;
}

export type RedeemResult =
  | Redeemed
  /** The lock lapsed before the redemption: tell the shopper and start over. */
  | { outcome: 'lock_lost' }
  /** No answer could be had: the lock stays held and journaled; redeem again (safe) or release. */
  | { outcome: 'unsettled' };

/**
 * released: by this call; lock_gone: the platform no longer held it (released by itself, or a
 * redemption that may have landed consumed it: then the entry stays until Find Voucher settles
 * it); retrying: the platform could not be reached, the release goes on in the background.
 */
export type LockSettlement = 'released' | 'lock_gone' | 'retrying';
/**
 * A redemption whose answer was lost is settled before its lock is let go of, so letting go can
 * turn out to be a redemption that had landed. not_held: this kiosk holds no lock on the voucher.
 */
export type LetGoResult = { outcome: LockSettlement } | Redeemed;
export type ReleaseResult = LetGoResult | { outcome: 'not_held' };
/** kept: still journaled, and the voucher not locked again, until Find Voucher can settle it. */
export type Settlement = LetGoResult | { outcome: 'kept' };

export type ReleaseReason = 'cancel' | 'timeout' | 'idle' | 'quit' | 'startup' | 'refused' | 'relock' | 'lock_failed' | 'confirm';

export interface SettledLock {
  voucherUuid: string;
  /** redeemed: a redemption whose answer was lost (before a restart, say) had landed. */
  outcome: Settlement['outcome'];
}

/** A second confirm while the first one's redeem is still on its way: answered at once. */
export class RedemptionInFlight extends Error {
  override readonly name = 'RedemptionInFlight';
  /** The bridge passes this on as its error code. */
  readonly kind = 'busy';
  constructor() {
    super('a redemption of this voucher is already under way');
  }
}

/** A voucher as the platform gave it to the visit on screen: locked without being found again. */
export interface KnownVoucher {
  uuid: string;
  code: string;
  name: string | null;
  promotionName: string | null;
}
