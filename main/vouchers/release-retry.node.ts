import { LoyaltyError, type LoyaltyErrorKind } from '../loyalty/errors.std.ts';
import { outsideTimeBudget } from '../loyalty/time-budget.node.ts';
import type { HeldLockEntry } from './lock-journal.node.ts';
import { failureFields, forget, keepUnsettled, type RedemptionContext } from './redemption-context.node.ts';
import type { LockSettlement, ReleaseReason } from './redemption-outcomes.std.ts';

/**
 * Releasing a held lock with its key; a release the platform cannot be reached for goes on in the
 * background, with doubling waits, until it works or the platform's own release makes it moot.
 */

// Release refusals that mean the key opens no lock any more.
const lockGoneKinds = new Set<LoyaltyErrorKind>(['conflict', 'not_found']);

export async function releaseEntry(ctx: RedemptionContext, entry: HeldLockEntry, reason: ReleaseReason, failures = 0): Promise<LockSettlement> {
  try {
    await ctx.client.releaseVoucher({ voucher_uuid: entry.voucherUuid, release_key: entry.releaseKey });
    // A landed redemption consumes the lock: a release that worked proves it never landed.
    await forget(ctx, entry, { kind: 'released', reason }, 'voucher lock released', { event: 'voucher.released', reason, failures });
    return 'released';
  } catch (error) {
    if (!(error instanceof LoyaltyError)) throw error;
    if (lockGoneKinds.has(error.kind)) {
      if (entry.phase === 'redeeming') {
        await keepUnsettled(ctx, entry, 'voucher lock gone while its redemption may have landed; kept until Find Voucher settles it', {
          reason,
          ...failureFields(error),
        });
      } else {
        await forget(ctx, entry, { kind: 'lock_lost', reason }, 'voucher lock already gone', { reason, ...failureFields(error) });
      }
      return 'lock_gone';
    }
    if (ctx.closed) return 'retrying';
    scheduleRelease(ctx, entry, reason, failures, error);
    return 'retrying';
  }
}

function scheduleRelease(ctx: RedemptionContext, entry: HeldLockEntry, reason: ReleaseReason, failures: number, error: LoyaltyError) {
  const { voucherUuid } = entry;
  const { initialDelayMs, maxDelayMs } = ctx.releaseRetry;
  const systemReleaseAt = Date.parse(entry.systemReleaseAt);
  const delay = Math.min(initialDelayMs * 2 ** failures, maxDelayMs, Math.max(0, systemReleaseAt - ctx.now()));
  ctx.log.warn('voucher lock release failed; retrying in the background', { voucherUuid, reason, ...failureFields(error), delayMs: delay });
  clearTimeout(ctx.retryTimers.get(voucherUuid));
  const retry = () =>
    ctx
      .exclusive(voucherUuid, () => retryRelease(ctx, voucherUuid, reason, failures + 1))
      .catch((failure: unknown) => ctx.log.error('background voucher release failed', { voucherUuid, ...failureFields(failure) }));
  // Background work, not the shopper's action: it must not spend (or be cut by) its budget.
  const timer = outsideTimeBudget(() =>
    setTimeout(() => {
      ctx.retryTimers.delete(voucherUuid);
      void retry();
    }, delay),
  );
  // A pending release must not keep the process alive: recover() takes over at the next start.
  timer.unref();
  ctx.retryTimers.set(voucherUuid, timer);
}

/** One background try, on whatever the journal holds for the voucher by then. */
async function retryRelease(ctx: RedemptionContext, voucherUuid: string, reason: ReleaseReason, failures: number) {
  const current = ctx.journal.get(voucherUuid);
  if (!current || ctx.closed || (current.phase !== 'locked' && current.phase !== 'redeeming')) return;
  if (ctx.now() < Date.parse(current.systemReleaseAt)) return void (await releaseEntry(ctx, current, reason, failures));
  if (current.phase === 'redeeming') {
    await keepUnsettled(ctx, current, 'voucher lock lapsed while its redemption may have landed; kept until Find Voucher settles it', { event: 'voucher.lock_lapsed', reason });
  } else {
    await forget(ctx, current, { kind: 'lock_lost', reason }, 'voucher lock lapsed before it could be released; the platform released it', { event: 'voucher.lock_lapsed', reason });
  }
}
