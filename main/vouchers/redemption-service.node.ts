import { serialQueue } from '../../base/queue.std.ts';
import type { HeldLock } from '../../common/shopper-views.std.ts';
import { lock, type LockFor } from './lock-step.node.ts';
import { redeem } from './redeem-step.node.ts';
import { recover, release, settleAll } from './recovery.node.ts';
import { createRedemptionContext, type RedemptionServiceOptions } from './redemption-context.node.ts';
import type { KnownVoucher, RedeemResult, ReleaseReason, ReleaseResult, SettledLock } from './redemption-outcomes.std.ts';

/**
 * Exactly-once voucher redemption. A lock is journaled before the shopper sees the confirm
 * screen (lock-step); a redeem whose outcome is unknown is settled with Find Voucher, never by a
 * blind second redemption (redeem-step); locks the kiosk no longer needs are released, in the
 * background when offline (release-retry), and those a crash left behind are released or
 * reconciled at the next start (recovery). The steps share one RedemptionContext.
 */

export type { RedemptionLedger, RedemptionServiceOptions, VoucherClient } from './redemption-context.node.ts';
export type { LockFor } from './lock-step.node.ts';
export {
  RedemptionInFlight,
  type KnownVoucher,
  type LetGoResult,
  type LockSettlement,
  type Redeemed,
  type RedeemResult,
  type ReleaseReason,
  type ReleaseResult,
  type SettledLock,
} from './redemption-outcomes.std.ts';

export interface RedemptionService {
  /**
   * Locks the voucher (found by code first when only its code is known); the lock is on disk, and
   * its ledger row written, before this resolves. Throws LedgerUnavailable, with nothing sent, when
   * the ledger cannot be written.
   */
  lock(voucher: KnownVoucher | string, lockFor?: LockFor): Promise<HeldLock>;
  /**
   * Redeems with the held lock. Throws a platform refusal (its code kept) once the lock is
   * released; answers `unsettled`, the lock still held (phase 'redeeming'), when the outcome could
   * not be learnt: call redeem again (safe) or release. Throws RedemptionInFlight while another
   * redeem() of the voucher runs.
   */
  redeem(voucherUuid: string, options?: { contactUuid?: string }): Promise<RedeemResult>;
  release(voucherUuid: string, reason: ReleaseReason): Promise<ReleaseResult>;
  releaseAll(reason: ReleaseReason): Promise<SettledLock[]>;
  /** At startup: releases or reconciles every lock the journal holds. */
  recover(): Promise<SettledLock[]>;
  /** Stops background releases; entries they had not finished stay journaled for recover(). */
  close(): void;
}

export function createRedemptionService(options: RedemptionServiceOptions): RedemptionService {
  const ctx = createRedemptionContext(options);
  // A lock waits for recovery: recovery settles the entries it found, and must not meet a new one.
  const recoveries = serialQueue();
  return {
    lock: (voucher, lockFor) => recoveries.idle().then(() => lock(ctx, voucher, lockFor)),
    redeem: (voucherUuid, redeemOptions) => redeem(ctx, voucherUuid, redeemOptions),
    release: (voucherUuid, reason) => release(ctx, voucherUuid, reason),
    releaseAll: (reason) => settleAll(ctx, reason),
    recover: () => recoveries.run(() => recover(ctx)),
    close() {
      ctx.closed = true;
      for (const timer of ctx.retryTimers.values()) clearTimeout(timer);
      ctx.retryTimers.clear();
    },
  };
}
