import { randomUUID } from 'node:crypto';
import { LOCK_DURATION_MS, type VoucherWithRedemptions } from '../../api/vouchers.std.ts';
import { platformErrors } from '../../api/errors.std.ts';
import type { HeldLock } from '../../common/shopper-views.std.ts';
import { LoyaltyError } from '../loyalty/errors.std.ts';
import type { HeldLockEntry, LockEntry, LockIntent } from './lock-journal.node.ts';
import type { IdentifiedBy } from '../../common/report-views.std.ts';
import { LedgerUnavailable } from '../ledger/ledger.node.ts';
import { failureFields, findVoucher, isUncertain, recordEvent, refusalCode, type RedemptionContext } from './redemption-context.node.ts';
import { letGo } from './recovery.node.ts';
import { releaseEntry } from './release-retry.node.ts';

/**
 * Locking a voucher before the shopper sees the confirm screen: an intent is journaled before
 * the Lock request leaves, the lock (with its key) before lock() resolves.
 */

/** Who the shopper is, for the ledger's rows of the attempt. */
export interface LockFor {
  identifiedBy?: IdentifiedBy;
  contactUuid?: string;
}

export async function lock(ctx: RedemptionContext, code: string, { identifiedBy, contactUuid }: LockFor = {}): Promise<HeldLock> {
  // A redemption the kiosk could not record is not begun: nothing is sent.
  ctx.ledger.assertWritable();
  const { uuid: voucherUuid } = await findVoucher(ctx, code);
  return ctx.exclusive(voucherUuid, async () => {
    // Read under the voucher's turn: an answer from before it may predate a release or redeem that ran meanwhile.
    const found = await findVoucher(ctx, code);
    const stale = ctx.journal.get(voucherUuid);
    if (stale) await clearForRelock(ctx, stale, found);
    const attempt = {
      voucherUuid,
      code,
      timesRedeemedBefore: found.times_redeemed,
      attemptId: randomUUID(),
      voucherName: found.name,
      promotionName: found.promotion.name,
      identifiedBy: identifiedBy ?? null,
      ...(contactUuid && { contactUuid }),
    };
    const intent: LockIntent = { ...attempt, phase: 'locking', intendedAt: new Date(ctx.now()).toISOString() };
    await ctx.journal.put(intent);
    const held = await lockOrKeepIntent(ctx, intent);
    const entry: HeldLockEntry = {
      ...attempt,
      releaseKey: held.release_key,
      lockedAt: held.locked_at,
      systemReleaseAt: held.system_release_at ?? new Date(Date.parse(held.locked_at) + LOCK_DURATION_MS).toISOString(),
      phase: 'locked',
    };
    await journalHeldLock(ctx, entry);
    ctx.log.info('voucher locked', { event: 'voucher.locked', voucherUuid });
    return { voucherUuid, lockedAt: entry.lockedAt, systemReleaseAt: entry.systemReleaseAt };
  });
}

/** Puts the lock on disk with the exact count under it; a lock that cannot be journaled is released. */
async function journalHeldLock(ctx: RedemptionContext, entry: HeldLockEntry) {
  try {
    await ctx.journal.put(entry);
    if (!recordEvent(ctx, entry, { kind: 'locked' })) throw new LedgerUnavailable('the ledger could not record the lock');
    // A redemption without a lock may have slipped in between the first count and the lock;
    // under the lock the count cannot move, so this one is exact.
    const { times_redeemed } = await findVoucher(ctx, entry.code);
    if (times_redeemed !== entry.timesRedeemedBefore) {
      await ctx.journal.put({ ...entry, timesRedeemedBefore: times_redeemed });
    }
  } catch (error) {
    await releaseEntry(ctx, entry, 'lock_failed');
    throw error;
  }
}

/**
 * A refused Lock made no lock: its intent goes. A lost answer may have made one: it stays. So
 * does a refusal because the voucher is locked: the lock in the way may be an earlier one of
 * this kiosk's whose answer was lost and that the platform carried out late (after the Find
 * that let its intent go).
 */
async function lockOrKeepIntent(ctx: RedemptionContext, intent: LockIntent) {
  try {
    return (await ctx.client.lockVoucher({ voucher_uuid: intent.voucherUuid })).data.lock;
  } catch (error) {
    if (isUncertain(error) || (error instanceof LoyaltyError && error.code === platformErrors.voucherAlreadyLocked.code)) {
      ctx.log.warn('voucher lock answer lost or refused as locked; the intent stays journaled until Find Voucher settles it', {
        voucherUuid: intent.voucherUuid,
        ...failureFields(error),
      });
    } else {
      if (error instanceof LoyaltyError) recordEvent(ctx, intent, { kind: 'refused', platformCode: refusalCode(error) });
      await ctx.journal.remove(intent.voucherUuid);
    }
    throw error;
  }
}

/**
 * What this kiosk still journals for a voucher about to be locked again, settled with the Find
 * answer lock() just had: a landed redemption refuses the lock (a multi-use voucher would lock
 * again regardless), and so does an entry letting go leaves behind: a lock this kiosk may hold but
 * cannot release, or a redemption that may have landed and that Find Voucher has yet to settle.
 */
async function clearForRelock(ctx: RedemptionContext, stale: LockEntry, found: VoucherWithRedemptions) {
  const settled = await letGo(ctx, stale, 'relock', found);
  if (settled.outcome === 'redeemed') {
    throw new LoyaltyError({ kind: 'conflict', code: platformErrors.voucherAlreadyRedeemed.code, message: 'this kiosk has just redeemed the voucher' });
  }
  // Kept (a lock it cannot release), or turned into 'settling' on the way (a redemption may have landed).
  if (settled.outcome === 'kept' || ctx.journal.get(stale.voucherUuid)) {
    throw new LoyaltyError({ kind: 'conflict', code: platformErrors.voucherAlreadyLocked.code, message: 'a lock of this kiosk may still hold the voucher' });
  }
}
