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
import type { KnownVoucher } from './redemption-outcomes.std.ts';
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

/**
 * Locks the voucher: the one call in a row before the confirm screen. A voucher known only by its
 * code is found first; the count under the lock is read beside the confirm screen, and redeem()
 * waits for it only if it has not arrived.
 */
export async function lock(ctx: RedemptionContext, voucher: KnownVoucher | string, { identifiedBy, contactUuid }: LockFor = {}): Promise<HeldLock> {
  // A redemption the kiosk could not record is not begun: nothing is sent.
  ctx.ledger.assertWritable();
  const known = typeof voucher === 'string' ? knownFrom(await findVoucher(ctx, voucher)) : voucher;
  const voucherUuid = known.uuid;
  return ctx.exclusive(voucherUuid, async () => {
    const stale = ctx.journal.get(voucherUuid);
    // Found under the voucher's turn: an answer from before it may predate a release or redeem that ran meanwhile.
    if (stale) await clearForRelock(ctx, stale, await findVoucher(ctx, known.code));
    const attempt = {
      voucherUuid,
      code: known.code,
      timesRedeemedBefore: null,
      attemptId: randomUUID(),
      voucherName: known.name,
      promotionName: known.promotionName,
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
    readCountBeside(ctx, entry);
    ctx.log.info('voucher locked', { event: 'voucher.locked', voucherUuid });
    return { voucherUuid, lockedAt: entry.lockedAt, systemReleaseAt: entry.systemReleaseAt };
  });
}

const knownFrom = (found: VoucherWithRedemptions): KnownVoucher => ({ uuid: found.uuid, code: found.code, name: found.name, promotionName: found.promotion.name });

/** Puts the lock on disk and in the ledger; a lock that cannot be recorded is released. */
async function journalHeldLock(ctx: RedemptionContext, entry: HeldLockEntry) {
  try {
    await ctx.journal.put(entry);
    if (!recordEvent(ctx, entry, { kind: 'locked' })) throw new LedgerUnavailable('the ledger could not record the lock');
  } catch (error) {
    await releaseEntry(ctx, entry, 'lock_failed');
    throw error;
  }
}

/**
 * Starts reading times_redeemed, under the lock (nobody else can redeem now, so the count is
 * exact), while the shopper reads the confirm screen. A read that fails is read again at Confirm.
 */
function readCountBeside(ctx: RedemptionContext, entry: HeldLockEntry): void {
  const reading = findVoucher(ctx, entry.code)
    .then(({ times_redeemed }) => journalCount(ctx, entry, times_redeemed))
    .catch((error: unknown) => ctx.log.warn('redemption count not read beside the confirm screen; read again at Confirm', { voucherUuid: entry.voucherUuid, ...failureFields(error) }))
    .finally(() => {
      if (ctx.counting.get(entry.voucherUuid) === reading) ctx.counting.delete(entry.voucherUuid);
    });
  ctx.counting.set(entry.voucherUuid, reading);
}

/**
 * The held entry with its count under the lock: the one read beside the confirm screen, or, when
 * that failed, one read now. Throws when the platform cannot be asked: no Redeem without it.
 */
export async function countedEntry(ctx: RedemptionContext, held: HeldLockEntry): Promise<HeldLockEntry> {
  if (held.timesRedeemedBefore !== null) return held;
  await ctx.counting.get(held.voucherUuid);
  const current = ctx.journal.get(held.voucherUuid);
  if (current?.phase === 'locked' && current.attemptId === held.attemptId && current.timesRedeemedBefore !== null) return current;
  const { times_redeemed } = await findVoucher(ctx, held.code);
  return journalCount(ctx, held, times_redeemed);
}

/** Journals the count on the entry it was read for, unless that lock has meanwhile gone or been counted. */
async function journalCount(ctx: RedemptionContext, entry: HeldLockEntry, count: number): Promise<HeldLockEntry> {
  const current = ctx.journal.get(entry.voucherUuid);
  if (current?.phase !== 'locked' || current.attemptId !== entry.attemptId || current.timesRedeemedBefore !== null) {
    ctx.log.debug('redemption count not journaled: its lock was let go or counted meanwhile', { event: 'voucher.count_unneeded', voucherUuid: entry.voucherUuid });
    return entry;
  }
  const counted = { ...current, timesRedeemedBefore: count };
  await ctx.journal.put(counted);
  return counted;
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
