import { LOCK_DURATION_MS, type VoucherWithRedemptions } from '../../api/vouchers.std.ts';
import { SHOPPER_ACTION_BUDGET_MS } from '../loyalty/time-budget.node.ts';
import type { LockEntry, LockIntent } from './lock-journal.node.ts';
import {
  failureFields,
  findVoucher,
  forget,
  landed,
  redeemedAnswer,
  redeemedByFind,
  type RedemptionContext,
} from './redemption-context.node.ts';
import type { ReleaseReason, ReleaseResult, SettledLock, Settlement } from './redemption-outcomes.std.ts';
import { releaseEntry } from './release-retry.node.ts';

/**
 * Letting go of journaled locks the kiosk no longer needs: one on release, all at the end of a
 * visit or a quit, and at startup those a crash left behind (recovery).
 */

/** Find Voucher for settling an entry; no answer is no verdict (logged). */
async function findToSettle(ctx: RedemptionContext, entry: LockEntry, reason: ReleaseReason): Promise<VoucherWithRedemptions | undefined> {
  return findVoucher(ctx, entry.code).catch((error: unknown) => {
    ctx.log.warn('could not settle a voucher lock with Find Voucher', { voucherUuid: entry.voucherUuid, reason, ...failureFields(error) });
    return undefined;
  });
}

/**
 * Lets go of whatever the journal holds for a voucher the kiosk no longer needs. A redemption
 * that may have landed is settled with Find Voucher (`found`, when the caller already has it)
 * first, so the shopper and the log hear what really happened; should that fail, releasing is
 * still right while the platform holds the lock: it never redeems, and a landed redemption
 * consumed the lock. Once the lock is gone, only Find Voucher can settle the entry.
 */
export async function letGo(ctx: RedemptionContext, entry: LockEntry, reason: ReleaseReason, found?: VoucherWithRedemptions): Promise<Settlement> {
  if (entry.phase === 'locking') return settleIntent(ctx, entry, reason, found);
  if (entry.phase === 'locked') return { outcome: await releaseEntry(ctx, entry, reason) };
  found ??= await findToSettle(ctx, entry, reason);
  if (found && landed(entry, found)) {
    await forget(ctx, entry, redeemedByFind(found, reason), 'voucher redemption had landed', { reason });
    return redeemedAnswer(ctx, entry, found);
  }
  if (found && (entry.phase === 'settling' || found.status === 'ACTIVE')) {
    await forget(ctx, entry, { kind: 'lock_lost', reason }, 'voucher redemption had not landed; the lock is gone', { reason, status: found.status });
    return { outcome: 'lock_gone' };
  }
  if (entry.phase === 'settling') return { outcome: 'kept' };
  return { outcome: await releaseEntry(ctx, entry, reason) };
}

/**
 * A Lock whose answer never came may have locked the voucher, but without its release key the
 * kiosk cannot release it (Release Voucher needs the key): only the platform's own release, an
 * hour after the lock, frees it. So the intent stays, and the voucher is not locked again by
 * this kiosk, until Find Voucher shows it unlocked or that hour (plus the Lock's own time) is up.
 */
async function settleIntent(ctx: RedemptionContext, entry: LockIntent, reason: ReleaseReason, found?: VoucherWithRedemptions): Promise<Settlement> {
  found ??= await findToSettle(ctx, entry, reason);
  if (!found) return { outcome: 'kept' };
  const lapsesBy = Date.parse(entry.intendedAt) + LOCK_DURATION_MS + SHOPPER_ACTION_BUDGET_MS;
  if (found.status === 'LOCKED' && ctx.now() < lapsesBy) {
    ctx.log.warn('voucher may be held by a lock whose answer was lost; only the platform can release it', {
      event: 'voucher.lock_answer_lost',
      voucherUuid: entry.voucherUuid,
      reason,
      lapsesBy: new Date(lapsesBy).toISOString(),
    });
    return { outcome: 'kept' };
  }
  await forget(ctx, entry, null, 'voucher lock intent settled: no lock of this kiosk holds the voucher', { reason, status: found.status });
  return { outcome: 'lock_gone' };
}

export function release(ctx: RedemptionContext, voucherUuid: string, reason: ReleaseReason): Promise<ReleaseResult> {
  return ctx.exclusive(voucherUuid, async () => {
    const entry = ctx.journal.get(voucherUuid);
    // An intent holds no key: nothing this kiosk could release.
    if (!entry || entry.phase === 'locking') return { outcome: 'not_held' };
    const settled = await letGo(ctx, entry, reason);
    return settled.outcome === 'kept' ? { outcome: 'lock_gone' } : settled;
  });
}

/**
 * At startup: a lock left by a crash belongs to a shopper who is gone, so a LOCKED voucher is
 * released, never redeemed. The uuids a damaged journal kept without a code are looked up first.
 */
export async function recover(ctx: RedemptionContext): Promise<SettledLock[]> {
  await resolveCodeless(ctx);
  return settleAll(ctx, 'startup');
}

/** Pages of LOCKED vouchers read to find a codeless uuid (500 a page): a bound, not a scan of the account. */
const LOCKED_PAGES_SEARCHED = 20;

/**
 * A uuid whose code was lost may still be locked by this kiosk. Find Voucher needs the code, so it
 * is looked for among the LOCKED vouchers: found, it becomes an intent that settles like any other
 * (kept, and the voucher not locked again, until the platform frees it); not among them, no lock
 * holds it. Offline, it stays unresolved for the next start.
 */
async function resolveCodeless(ctx: RedemptionContext): Promise<void> {
  const wanted = new Set(ctx.journal.unresolved());
  if (wanted.size === 0) return;
  try {
    for (let page = 1; page <= LOCKED_PAGES_SEARCHED && wanted.size > 0; page++) {
      const { data, meta } = await ctx.client.listVouchers({ status: 'LOCKED', limit: 500, page });
      for (const voucher of data.filter(({ uuid }) => wanted.has(uuid))) {
        wanted.delete(voucher.uuid);
        await ctx.exclusive(voucher.uuid, async () => {
          // An entry the voucher has meanwhile (salvaged with its code after all) is the better record.
          if (ctx.journal.get(voucher.uuid)) return ctx.journal.resolve(voucher.uuid);
          const intendedAt = new Date(ctx.now()).toISOString();
          await ctx.journal.resolve(voucher.uuid, { voucherUuid: voucher.uuid, code: voucher.code, timesRedeemedBefore: 0, phase: 'locking', intendedAt });
          ctx.log.info('codeless journal entry found locked; kept as a lock intent', { voucherUuid: voucher.uuid });
        });
      }
      if (page >= meta.last_page) {
        for (const voucherUuid of wanted) await ctx.journal.resolve(voucherUuid);
        if (wanted.size > 0) ctx.log.info('codeless journal entries not locked on the platform; nothing to settle', { voucherUuids: [...wanted] });
        return;
      }
    }
    ctx.log.warn('codeless journal entries not found in the first locked vouchers; kept for the next start', { voucherUuids: [...wanted] });
  } catch (error) {
    ctx.log.warn('could not look up codeless journal entries; kept for the next start', { voucherUuids: [...wanted], ...failureFields(error) });
  }
}

/** Settles every journaled lock, each in its turn with any operation on the same voucher. */
export async function settleAll(ctx: RedemptionContext, reason: ReleaseReason): Promise<SettledLock[]> {
  const settled = await Promise.all(
    ctx.journal.entries().map(({ voucherUuid }) =>
      ctx.exclusive(voucherUuid, async () => {
        const entry = ctx.journal.get(voucherUuid);
        return entry && { voucherUuid, outcome: (await letGo(ctx, entry, reason)).outcome };
      }),
    ),
  );
  return settled.filter((lock): lock is SettledLock => lock !== undefined);
}
