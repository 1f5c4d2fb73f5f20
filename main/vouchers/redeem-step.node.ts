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
  recordEvent,
  redeemedAnswer,
  refusalCode,
  redeemedByFind,
  uncertainKinds,
  type RedemptionContext,
} from './redemption-context.node.ts';
import { RedemptionInFlight, type RedeemResult, type Settlement } from './redemption-outcomes.std.ts';
import { countedEntry } from './lock-step.node.ts';
import { letGo } from './recovery.node.ts';
import { releaseEntry } from './release-retry.node.ts';

/**
 * Redeeming with the held lock, and settling a redeem whose outcome is unknown with Find Voucher,
 * never by a blind second redemption: no Redeem goes out while an earlier one's fate is unknown,
 * not even one the release key would make the platform refuse (a redemption consumes the lock).
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
  // An earlier redeem() that ended unsettled may have landed: Find says so before anything is sent.
  if (held.phase === 'redeeming') {
    const earlier = await settleEarlierAttempt(ctx, held);
    if (earlier) return earlier;
  }
  // Even if Find shows nothing landed, the earlier Redeem may still be on its way: its refusals prove nothing.
  let mayHaveLanded = held.phase === 'redeeming';
  // A redemption the kiosk could not record is not made: the lock stays, for a cancel or a later try.
  ctx.ledger.assertWritable();
  // No Redeem before the count under the lock is known: it tells later whether a lost answer's redemption landed.
  const counted = await countedEntry(ctx, held);
  const entry: HeldLockEntry = { ...counted, phase: 'redeeming', contactUuid: contactUuid ?? held.contactUuid };
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

/**
 * A confirm after one that ended unsettled: what Find Voucher says of the earlier Redeem. Landed,
 * or the lock lost, is the answer; Find unanswered leaves it unsettled, with nothing sent; undefined:
 * it did not land and the voucher is still ours, so a Redeem may go.
 */
async function settleEarlierAttempt(ctx: RedemptionContext, entry: HeldLockEntry): Promise<RedeemResult | undefined> {
  let found;
  try {
    found = await findVoucher(ctx, entry.code);
  } catch (error) {
    if (!isUncertain(error)) throw error;
    ctx.log.warn('voucher redemption still unsettled; no Redeem sent until Find Voucher answers', { voucherUuid: entry.voucherUuid, ...failureFields(error) });
    return { outcome: 'unsettled' };
  }
  return settledByFind(ctx, entry, found, { mayHaveLanded: true, fields: { attempt: 0 } });
}

/** What Find's answer settles of a Redeem: it landed (if it may have), the lock is lost, or nothing (undefined: still locked). */
async function settledByFind(
  ctx: RedemptionContext,
  entry: HeldLockEntry,
  found: Awaited<ReturnType<typeof findVoucher>>,
  { mayHaveLanded, fields }: { mayHaveLanded: boolean; fields: Record<string, unknown> },
): Promise<RedeemResult | undefined> {
  if (mayHaveLanded && landed(entry, found)) {
    await forget(ctx, entry, redeemedByFind(found), 'voucher redeemed (confirmed by Find Voucher)', fields);
    return redeemedAnswer(ctx, entry, found);
  }
  if (found.status !== 'ACTIVE') return undefined;
  await forget(ctx, entry, { kind: 'lock_lost', reason: 'confirm' }, 'voucher lock lost before the redemption', fields);
  return { outcome: 'lock_lost' };
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
    const { uuid: redemptionUuid, created_at: redeemedAt } = data.voucher_redemption;
    await forget(ctx, entry, { kind: 'redeemed', settledBy: 'redeem', redemptionUuid, redeemedAt }, 'voucher redeemed', { event: 'voucher.redeemed', attempt });
    return redeemedAnswer(ctx, entry, data, redeemedAt);
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
  const settled = await settledByFind(ctx, entry, found, { mayHaveLanded, fields: { attempt, kind: failure.kind } });
  if (settled) return settled;
  if (!answerLost) {
    ctx.log.info('voucher redemption refused', { voucherUuid: entry.voucherUuid, ...failureFields(failure) });
    recordEvent(ctx, entry, { kind: 'refused', platformCode: refusalCode(failure) });
    // Find Voucher has just shown that no redemption of ours landed.
    await releaseEntry(ctx, { ...entry, phase: 'locked' }, 'refused');
    throw failure;
  }
  return undefined;
}

function unsettled(ctx: RedemptionContext, entry: HeldLockEntry, attempt: number, failure: LoyaltyError): RedeemResult {
  recordEvent(ctx, entry, { kind: 'unsettled', reason: failure.kind });
  ctx.log.warn('voucher redemption unsettled; the lock stays held', { event: 'voucher.redeem_unsettled', voucherUuid: entry.voucherUuid, attempt, ...failureFields(failure) });
  return { outcome: 'unsettled' };
}
