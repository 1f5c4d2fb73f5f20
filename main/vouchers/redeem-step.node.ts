import { setTimeout as sleep } from 'node:timers/promises';
import { BridgeFailure } from '../bridge/dispatcher.std.ts';
import { LoyaltyError } from '../loyalty/errors.std.ts';
import { remainingBudgetMs } from '../loyalty/time-budget.node.ts';
import type { HeldLockEntry } from './lock-journal.node.ts';
import {
  failureFields,
  findVoucher,
  forget,
  isUncertain,
  landed,
  redeemedAnswer,
  uncertainKinds,
  type RedemptionContext,
} from './redemption-context.node.ts';
import { RedemptionInFlight, type RedeemResult, type Settlement } from './redemption-outcomes.std.ts';
import { letGo } from './recovery.node.ts';
import { releaseEntry } from './release-retry.node.ts';

/**
 * Redeeming with the held lock, and settling a redeem whose outcome is unknown with Find Voucher,
 * never by a blind second redemption. Retrying is safe: each request carries the lock's release
 * key, and a redemption consumes the lock, so a repeat after a landed one is refused.
 */

export function redeem(ctx: RedemptionContext, voucherUuid: string, { contactUuid }: { contactUuid?: string } = {}): Promise<RedeemResult> {
  if (ctx.redeeming.has(voucherUuid)) return Promise.reject(new RedemptionInFlight());
  ctx.redeeming.add(voucherUuid);
  return ctx
    .exclusive(voucherUuid, async () => {
      const held = ctx.journal.get(voucherUuid);
      if (!held || held.phase === 'locking') throw new BridgeFailure('not_locked', 'no voucher lock is held for this voucher: nothing was sent; lock it first');
      if (held.phase === 'settling') return settledAsRedeem(await letGo(ctx, held, 'confirm'));
      return redeemWith(ctx, held, contactUuid);
    })
    .finally(() => ctx.redeeming.delete(voucherUuid));
}

/** A confirm on a voucher whose lock went while its redemption may have landed. */
function settledAsRedeem(settled: Settlement): RedeemResult {
  if (settled.outcome === 'redeemed') return settled;
  return settled.outcome === 'kept' ? { outcome: 'unsettled' } : { outcome: 'lock_lost' };
}

async function redeemWith(ctx: RedemptionContext, held: HeldLockEntry, contactUuid: string | undefined): Promise<RedeemResult> {
  // An earlier redeem() that ended unsettled may have landed: its refusals prove nothing.
  let mayHaveLanded = held.phase === 'redeeming';
  const entry: HeldLockEntry = { ...held, phase: 'redeeming', contactUuid: contactUuid ?? held.contactUuid };
  await ctx.journal.put(entry);

  for (let attempt = 1; ; attempt++) {
    const answer = await requestRedemption(ctx, entry, attempt);
    if (!(answer instanceof LoyaltyError)) return answer;
    const answerLost = uncertainKinds.has(answer.kind);
    mayHaveLanded ||= answerLost;
    const settled = await settleFailedAttempt(ctx, entry, { attempt, failure: answer, answerLost, mayHaveLanded });
    if (settled) return settled;
    const delayMs = ctx.redeemRetryDelayMs * attempt;
    if (attempt >= ctx.redeemAttempts || delayMs >= remainingBudgetMs()) return unsettled(ctx, entry, attempt, answer);
    await sleep(delayMs);
  }
}

/** One Redeem request: the redemption, or the platform's refusal or lost answer. */
async function requestRedemption(ctx: RedemptionContext, entry: HeldLockEntry, attempt: number): Promise<RedeemResult | LoyaltyError> {
  try {
    const { data } = await ctx.client.redeemVoucher({
      code: entry.code,
      shop_uuid: ctx.shopUuid(),
      contact_uuid: entry.contactUuid,
      release_key: entry.releaseKey,
    });
    await forget(ctx, entry, 'voucher redeemed', { attempt });
    return { outcome: 'redeemed', voucher: data, redeemedAt: data.voucher_redemption.created_at };
  } catch (error) {
    if (!(error instanceof LoyaltyError)) throw error;
    return error;
  }
}

/**
 * What Find Voucher says after a failed attempt: landed, lock lost, refused (thrown, the lock
 * released), unsettled; undefined when the answer was lost and another attempt may follow.
 */
async function settleFailedAttempt(
  ctx: RedemptionContext,
  entry: HeldLockEntry,
  { attempt, failure, answerLost, mayHaveLanded }: { attempt: number; failure: LoyaltyError; answerLost: boolean; mayHaveLanded: boolean },
): Promise<RedeemResult | undefined> {
  const found = await findVoucher(ctx, entry.code).catch((error: unknown) => {
    if (isUncertain(error)) return undefined;
    throw error;
  });
  if (!found) return unsettled(ctx, entry, attempt, failure);
  if (mayHaveLanded && landed(entry, found)) {
    await forget(ctx, entry, 'voucher redeemed (confirmed by Find Voucher)', { attempt, kind: failure.kind });
    return redeemedAnswer(ctx, found);
  }
  if (found.status === 'ACTIVE') {
    await forget(ctx, entry, 'voucher lock lost before the redemption', { attempt, kind: failure.kind });
    return { outcome: 'lock_lost' };
  }
  if (!answerLost) {
    ctx.log.info('voucher redemption refused', { voucherUuid: entry.voucherUuid, ...failureFields(failure) });
    // Find Voucher has just shown that no redemption of ours landed.
    await releaseEntry(ctx, { ...entry, phase: 'locked' }, 'refused');
    throw failure;
  }
  return undefined;
}

function unsettled(ctx: RedemptionContext, entry: HeldLockEntry, attempt: number, failure: LoyaltyError): RedeemResult {
  ctx.log.warn('voucher redemption unsettled; the lock stays held', { voucherUuid: entry.voucherUuid, attempt, ...failureFields(failure) });
  return { outcome: 'unsettled' };
}
