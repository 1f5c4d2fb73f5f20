import { setTimeout as sleep } from 'node:timers/promises';
import type { VoucherWithRedemptions } from '../../api/vouchers.std.ts';
import type { HeldLock } from '../../common/shopper-views.std.ts';
import { silentLogger, type Logger } from '../logging/logger.std.ts';
import type { LoyaltyClient } from '../loyalty/client.node.ts';
import { platformErrors } from '../../api/errors.std.ts';
import { LoyaltyError, type LoyaltyErrorKind } from '../loyalty/errors.std.ts';
import { outsideTimeBudget, remainingBudgetMs, SHOPPER_ACTION_BUDGET_MS } from '../loyalty/time-budget.node.ts';
import type { HeldLockEntry, LockEntry, LockIntent, LockJournal } from './lock-journal.node.ts';

/**
 * Exactly-once voucher redemption. A lock is journaled before the shopper sees the confirm
 * screen; a redeem whose outcome is unknown is settled with Find Voucher, never by a blind second
 * redemption; locks the kiosk no longer needs are released, in the background when offline, and
 * those a crash left behind are released or reconciled at the next start.
 *
 * Why retrying a redeem is safe: it always carries the lock's release key, and a redemption
 * consumes the lock, so a repeat after a landed one is refused instead of redeeming again.
 */

export type VoucherClient = Pick<LoyaltyClient, 'findVoucher' | 'lockVoucher' | 'redeemVoucher' | 'releaseVoucher'>;

export interface RedemptionServiceOptions {
  client: VoucherClient;
  journal: LockJournal;
  /** Read at each redemption: the shop this kiosk stands in. */
  shopUuid: () => string;
  logger?: Logger;
  now?: () => number;
  /** Redeem requests per redeem() while the voucher stays locked and answers get lost (default 3). */
  redeemAttempts?: number;
  redeemRetryDelayMs?: number;
  /** Background release: first wait, doubling up to the maximum (defaults 2 s and 60 s). */
  releaseRetry?: { initialDelayMs: number; maxDelayMs: number };
}

export interface Redeemed {
  outcome: 'redeemed';
  voucher: VoucherWithRedemptions;
  redeemedAt: string;
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
type Settlement = LetGoResult | { outcome: 'kept' };

export type ReleaseReason = 'cancel' | 'back' | 'timeout' | 'idle' | 'quit' | 'startup' | 'refused' | 'relock' | 'lock_failed' | 'confirm';

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

export interface RedemptionService {
  /** Finds the voucher by code and locks it; the lock is on disk before this resolves. */
  lock(code: string): Promise<HeldLock>;
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

// No answer, or one that cannot be trusted: the request may have been carried out.
const uncertainKinds = new Set<LoyaltyErrorKind>(['network', 'timeout', 'server', 'maintenance', 'bad_response']);
const isUncertain = (error: unknown) => error instanceof LoyaltyError && uncertainKinds.has(error.kind);
// Release refusals that mean the key opens no lock any more.
const lockGoneKinds = new Set<LoyaltyErrorKind>(['conflict', 'not_found']);

const LOCK_DURATION_MS = 60 * 60 * 1000;

/**
 * Whether one of this kiosk's redemptions landed, as Find Voucher tells it: under the lock
 * nobody else can redeem, so a count above the one read under the lock, or a redemption later
 * than the lock, is ours. (Timestamps are whole seconds: only a strictly later one counts.)
 */
function landed(entry: HeldLockEntry, found: VoucherWithRedemptions): boolean {
  if (found.status === 'REDEEMED' || found.times_redeemed > entry.timesRedeemedBefore) return true;
  return found.redeemed_at !== null && Date.parse(found.redeemed_at) > Date.parse(entry.lockedAt);
}

export function createRedemptionService(options: RedemptionServiceOptions): RedemptionService {
  const { client, journal, shopUuid, now = Date.now, redeemAttempts = 3, redeemRetryDelayMs = 500 } = options;
  const { initialDelayMs, maxDelayMs } = options.releaseRetry ?? { initialDelayMs: 2_000, maxDelayMs: 60_000 };
  // Voucher uuids only: codes and release keys stay out of the logs.
  const log = (options.logger ?? silentLogger).child({ part: 'vouchers' });
  const retryTimers = new Map<string, NodeJS.Timeout>();
  const redeeming = new Set<string>();
  let closed = false;

  // One operation per voucher at a time: an idle release waits for a redeem in flight.
  const queues = new Map<string, Promise<unknown>>();
  function exclusive<T>(voucherUuid: string, task: () => Promise<T>): Promise<T> {
    const result = (queues.get(voucherUuid) ?? Promise.resolve()).then(task);
    const tail = result.catch(() => {});
    queues.set(voucherUuid, tail);
    void tail.then(() => queues.get(voucherUuid) === tail && queues.delete(voucherUuid));
    return result;
  }

  async function find(code: string): Promise<VoucherWithRedemptions> {
    return (await client.findVoucher({ code })).data;
  }

  async function forget(entry: LockEntry, message: string, fields: Record<string, unknown> = {}) {
    clearTimeout(retryTimers.get(entry.voucherUuid));
    retryTimers.delete(entry.voucherUuid);
    await journal.remove(entry.voucherUuid);
    log.info(message, { voucherUuid: entry.voucherUuid, ...fields });
  }

  function redeemed(found: VoucherWithRedemptions): Redeemed {
    return { outcome: 'redeemed', voucher: found, redeemedAt: found.redeemed_at ?? new Date(now()).toISOString() };
  }

  /**
   * The platform no longer holds the lock of a redemption that may have landed: the entry stays,
   * and the voucher is not locked again, until Find Voucher tells whether it did.
   */
  async function keepUnsettled(entry: HeldLockEntry, message: string, fields: Record<string, unknown>) {
    await journal.put({ ...entry, phase: 'settling' });
    log.warn(message, { voucherUuid: entry.voucherUuid, ...fields });
  }

  async function releaseEntry(entry: HeldLockEntry, reason: ReleaseReason, failures = 0): Promise<LockSettlement> {
    const { voucherUuid } = entry;
    try {
      await client.releaseVoucher({ voucher_uuid: voucherUuid, release_key: entry.releaseKey });
      // A landed redemption consumes the lock: a release that worked proves it never landed.
      await forget(entry, 'voucher lock released', { reason, failures });
      return 'released';
    } catch (error) {
      if (!(error instanceof LoyaltyError)) throw error;
      if (lockGoneKinds.has(error.kind)) {
        if (entry.phase === 'redeeming') {
          await keepUnsettled(entry, 'voucher lock gone while its redemption may have landed; kept until Find Voucher settles it', {
            reason,
            ...failureFields(error),
          });
        } else {
          await forget(entry, 'voucher lock already gone', { reason, ...failureFields(error) });
        }
        return 'lock_gone';
      }
      if (closed) return 'retrying';
      scheduleRelease(entry, reason, failures, error);
      return 'retrying';
    }
  }

  function scheduleRelease(entry: HeldLockEntry, reason: ReleaseReason, failures: number, error: LoyaltyError) {
    const { voucherUuid } = entry;
    const systemReleaseAt = Date.parse(entry.systemReleaseAt);
    const delay = Math.min(initialDelayMs * 2 ** failures, maxDelayMs, Math.max(0, systemReleaseAt - now()));
    log.warn('voucher lock release failed; retrying in the background', { voucherUuid, reason, ...failureFields(error), delayMs: delay });
    clearTimeout(retryTimers.get(voucherUuid));
    const retry = () =>
      exclusive(voucherUuid, async () => {
        const current = journal.get(voucherUuid);
        if (!current || closed || (current.phase !== 'locked' && current.phase !== 'redeeming')) return;
        if (now() < Date.parse(current.systemReleaseAt)) return void (await releaseEntry(current, reason, failures + 1));
        if (current.phase === 'redeeming') {
          await keepUnsettled(current, 'voucher lock lapsed while its redemption may have landed; kept until Find Voucher settles it', { reason });
        } else {
          await forget(current, 'voucher lock lapsed before it could be released; the platform released it', { reason });
        }
      }).catch((failure: unknown) => log.error('background voucher release failed', { voucherUuid, ...failureFields(failure) }));
    // Background work, not the shopper's action: it must not spend (or be cut by) its budget.
    const timer = outsideTimeBudget(() =>
      setTimeout(() => {
        retryTimers.delete(voucherUuid);
        void retry();
      }, delay),
    );
    // A pending release must not keep the process alive: recover() takes over at the next start.
    timer.unref();
    retryTimers.set(voucherUuid, timer);
  }

  async function lock(code: string): Promise<HeldLock> {
    const found = await find(code);
    const voucherUuid = found.uuid;
    return exclusive(voucherUuid, async () => {
      const stale = journal.get(voucherUuid);
      if (stale) await clearForRelock(stale, found);
      const intent: LockIntent = {
        voucherUuid,
        code,
        timesRedeemedBefore: found.times_redeemed,
        phase: 'locking',
        intendedAt: new Date(now()).toISOString(),
      };
      await journal.put(intent);
      const held = await lockOrKeepIntent(intent);
      const entry: HeldLockEntry = {
        voucherUuid,
        code,
        releaseKey: held.release_key,
        timesRedeemedBefore: found.times_redeemed,
        lockedAt: held.locked_at,
        systemReleaseAt:
          held.system_release_at ?? new Date(Date.parse(held.locked_at) + LOCK_DURATION_MS).toISOString(),
        phase: 'locked',
      };
      try {
        await journal.put(entry);
        // A redemption without a lock may have slipped in between the first count and the lock;
        // under the lock the count cannot move, so this one is exact.
        const { times_redeemed } = await find(code);
        if (times_redeemed !== entry.timesRedeemedBefore) {
          await journal.put({ ...entry, timesRedeemedBefore: times_redeemed });
        }
      } catch (error) {
        await releaseEntry(entry, 'lock_failed');
        throw error;
      }
      log.info('voucher locked', { voucherUuid });
      return { voucherUuid, lockedAt: entry.lockedAt, systemReleaseAt: entry.systemReleaseAt };
    });
  }

  /**
   * A refused Lock made no lock: its intent goes. A lost answer may have made one: it stays. So
   * does a refusal because the voucher is locked: the lock in the way may be an earlier one of
   * this kiosk's whose answer was lost and that the platform carried out late (after the Find
   * that let its intent go).
   */
  async function lockOrKeepIntent(intent: LockIntent) {
    try {
      return (await client.lockVoucher({ voucher_uuid: intent.voucherUuid })).data.lock;
    } catch (error) {
      if (isUncertain(error) || (error instanceof LoyaltyError && error.code === platformErrors.voucherAlreadyLocked.code)) {
        log.warn('voucher lock answer lost or refused as locked; the intent stays journaled until Find Voucher settles it', {
          voucherUuid: intent.voucherUuid,
          ...failureFields(error),
        });
      } else {
        await journal.remove(intent.voucherUuid);
      }
      throw error;
    }
  }

  /**
   * What this kiosk still journals for a voucher about to be locked again, settled with the Find
   * answer lock() just had: a landed redemption refuses the lock (a multi-use voucher would lock
   * again regardless), and so does a lock this kiosk may hold but cannot release.
   */
  async function clearForRelock(stale: LockEntry, found: VoucherWithRedemptions) {
    const settled = await letGo(stale, 'relock', found);
    if (settled.outcome === 'redeemed') {
      throw new LoyaltyError({ kind: 'conflict', code: platformErrors.voucherAlreadyRedeemed.code, message: 'this kiosk has just redeemed the voucher' });
    }
    if (settled.outcome === 'kept') {
      throw new LoyaltyError({ kind: 'conflict', code: platformErrors.voucherAlreadyLocked.code, message: 'a lock of this kiosk may still hold the voucher' });
    }
  }

  function redeem(voucherUuid: string, { contactUuid }: { contactUuid?: string } = {}): Promise<RedeemResult> {
    if (redeeming.has(voucherUuid)) return Promise.reject(new RedemptionInFlight());
    redeeming.add(voucherUuid);
    return exclusive(voucherUuid, async () => {
      const held = journal.get(voucherUuid);
      if (!held || held.phase === 'locking') throw new Error('No voucher lock is held for this voucher');
      if (held.phase === 'settling') return settledAsRedeem(await letGo(held, 'confirm'));
      return redeemWith(held, contactUuid);
    }).finally(() => redeeming.delete(voucherUuid));
  }

  /** A confirm on a voucher whose lock went while its redemption may have landed. */
  function settledAsRedeem(settled: Settlement): RedeemResult {
    if (settled.outcome === 'redeemed') return settled;
    return settled.outcome === 'kept' ? { outcome: 'unsettled' } : { outcome: 'lock_lost' };
  }

  async function redeemWith(held: HeldLockEntry, contactUuid: string | undefined): Promise<RedeemResult> {
    const { voucherUuid } = held;
    // An earlier redeem() that ended unsettled may have landed: its refusals prove nothing.
    let mayHaveLanded = held.phase === 'redeeming';
    const entry: HeldLockEntry = { ...held, phase: 'redeeming', contactUuid: contactUuid ?? held.contactUuid };
    await journal.put(entry);

    for (let attempt = 1; ; attempt++) {
      let failure: LoyaltyError;
      try {
        const { data } = await client.redeemVoucher({
          code: entry.code,
          shop_uuid: shopUuid(),
          contact_uuid: entry.contactUuid,
          release_key: entry.releaseKey,
        });
        await forget(entry, 'voucher redeemed', { attempt });
        return { outcome: 'redeemed', voucher: data, redeemedAt: data.voucher_redemption.created_at };
      } catch (error) {
        if (!(error instanceof LoyaltyError)) throw error;
        failure = error;
      }
      const answerLost = uncertainKinds.has(failure.kind);
      mayHaveLanded ||= answerLost;
      const found = await find(entry.code).catch((error: unknown) => {
        if (isUncertain(error)) return undefined;
        throw error;
      });
      if (!found) return unsettled(entry, attempt, failure);
      if (mayHaveLanded && landed(entry, found)) {
        await forget(entry, 'voucher redeemed (confirmed by Find Voucher)', { attempt, kind: failure.kind });
        return redeemed(found);
      }
      if (found.status === 'ACTIVE') {
        await forget(entry, 'voucher lock lost before the redemption', { attempt, kind: failure.kind });
        return { outcome: 'lock_lost' };
      }
      if (!answerLost) {
        log.info('voucher redemption refused', { voucherUuid, ...failureFields(failure) });
        // Find Voucher has just shown that no redemption of ours landed.
        await releaseEntry({ ...entry, phase: 'locked' }, 'refused');
        throw failure;
      }
      const delayMs = redeemRetryDelayMs * attempt;
      if (attempt >= redeemAttempts || delayMs >= remainingBudgetMs()) return unsettled(entry, attempt, failure);
      await sleep(delayMs);
    }
  }

  function unsettled(entry: HeldLockEntry, attempt: number, failure: LoyaltyError): RedeemResult {
    log.warn('voucher redemption unsettled; the lock stays held', { voucherUuid: entry.voucherUuid, attempt, ...failureFields(failure) });
    return { outcome: 'unsettled' };
  }

  /** Find Voucher for settling an entry; no answer is no verdict (logged). */
  async function findToSettle(entry: LockEntry, reason: ReleaseReason): Promise<VoucherWithRedemptions | undefined> {
    return find(entry.code).catch((error: unknown) => {
      log.warn('could not settle a voucher lock with Find Voucher', { voucherUuid: entry.voucherUuid, reason, ...failureFields(error) });
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
  async function letGo(entry: LockEntry, reason: ReleaseReason, found?: VoucherWithRedemptions): Promise<Settlement> {
    if (entry.phase === 'locking') return settleIntent(entry, reason, found);
    if (entry.phase === 'locked') return { outcome: await releaseEntry(entry, reason) };
    found ??= await findToSettle(entry, reason);
    if (found && landed(entry, found)) {
      await forget(entry, 'voucher redemption had landed', { reason });
      return redeemed(found);
    }
    if (found && (entry.phase === 'settling' || found.status === 'ACTIVE')) {
      await forget(entry, 'voucher redemption had not landed; the lock is gone', { reason, status: found.status });
      return { outcome: 'lock_gone' };
    }
    if (entry.phase === 'settling') return { outcome: 'kept' };
    return { outcome: await releaseEntry(entry, reason) };
  }

  /**
   * A Lock whose answer never came may have locked the voucher, but without its release key the
   * kiosk cannot release it (Release Voucher needs the key): only the platform's own release, an
   * hour after the lock, frees it. So the intent stays, and the voucher is not locked again by
   * this kiosk, until Find Voucher shows it unlocked or that hour (plus the Lock's own time) is up.
   */
  async function settleIntent(entry: LockIntent, reason: ReleaseReason, found?: VoucherWithRedemptions): Promise<Settlement> {
    found ??= await findToSettle(entry, reason);
    if (!found) return { outcome: 'kept' };
    const lapsesBy = Date.parse(entry.intendedAt) + LOCK_DURATION_MS + SHOPPER_ACTION_BUDGET_MS;
    if (found.status === 'LOCKED' && now() < lapsesBy) {
      log.warn('voucher may be held by a lock whose answer was lost; only the platform can release it', {
        voucherUuid: entry.voucherUuid,
        reason,
        lapsesBy: new Date(lapsesBy).toISOString(),
      });
      return { outcome: 'kept' };
    }
    await forget(entry, 'voucher lock intent settled: no lock of this kiosk holds the voucher', { reason, status: found.status });
    return { outcome: 'lock_gone' };
  }

  function release(voucherUuid: string, reason: ReleaseReason): Promise<ReleaseResult> {
    return exclusive(voucherUuid, async () => {
      const entry = journal.get(voucherUuid);
      // An intent holds no key: nothing this kiosk could release.
      if (!entry || entry.phase === 'locking') return { outcome: 'not_held' };
      const settled = await letGo(entry, reason);
      return settled.outcome === 'kept' ? { outcome: 'lock_gone' } : settled;
    });
  }

  /** Settles every journaled lock, each in its turn with any operation on the same voucher. */
  async function settleAll(reason: ReleaseReason): Promise<SettledLock[]> {
    const settled = await Promise.all(
      journal.entries().map(({ voucherUuid }) =>
        exclusive(voucherUuid, async () => {
          const entry = journal.get(voucherUuid);
          return entry && { voucherUuid, outcome: (await letGo(entry, reason)).outcome };
        }),
      ),
    );
    return settled.filter((lock): lock is SettledLock => lock !== undefined);
  }

  function close() {
    closed = true;
    for (const timer of retryTimers.values()) clearTimeout(timer);
    retryTimers.clear();
  }

  return {
    lock,
    redeem,
    release,
    releaseAll: settleAll,
    // A lock left by a crash: the shopper is gone, so a LOCKED voucher is released, never redeemed.
    recover: () => settleAll('startup'),
    close,
  };
}

/** Kind and code only: the platform's message may quote the voucher code. */
function failureFields(error: unknown): Record<string, unknown> {
  return error instanceof LoyaltyError ? { kind: error.kind, code: error.code } : { error };
}
