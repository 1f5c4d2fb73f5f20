import { setTimeout as sleep } from 'node:timers/promises';
import type { VoucherWithRedemptions } from '../../api/vouchers.std.ts';
import { silentLogger, type Logger } from '../logging/logger.std.ts';
import type { LoyaltyClient } from '../loyalty/client.node.ts';
import { platformErrors } from '../../api/errors.std.ts';
import { LoyaltyError, type LoyaltyErrorKind } from '../loyalty/errors.std.ts';
import type { LockEntry, LockJournal } from './lock-journal.node.ts';

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

export interface HeldLock {
  voucherUuid: string;
  lockedAt: string;
  systemReleaseAt: string;
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
 * released: by this call; lock_gone: the platform no longer held it (released by itself, redeemed);
 * retrying: the platform could not be reached, the release goes on in the background.
 */
export type LockSettlement = 'released' | 'lock_gone' | 'retrying';
/**
 * A redemption whose answer was lost is settled before its lock is let go of, so letting go can
 * turn out to be a redemption that had landed. not_held: this kiosk holds no lock on the voucher.
 */
export type LetGoResult = { outcome: LockSettlement } | Redeemed;
export type ReleaseResult = LetGoResult | { outcome: 'not_held' };

export type ReleaseReason = 'cancel' | 'back' | 'timeout' | 'idle' | 'quit' | 'startup' | 'refused' | 'relock' | 'lock_failed';

export interface SettledLock {
  voucherUuid: string;
  /** redeemed: a redemption whose answer was lost (before a restart, say) had landed. */
  outcome: LockSettlement | 'redeemed';
}

export interface RedemptionService {
  /** Finds the voucher by code and locks it; the lock is on disk before this resolves. */
  lock(code: string): Promise<HeldLock>;
  /**
   * Redeems with the held lock. Throws a platform refusal (its code kept) once the lock is
   * released; answers `unsettled`, the lock still held (phase 'redeeming'), when the outcome could
   * not be learnt: call redeem again (safe) or release.
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
// Release refusals that mean the key opens no lock any more.
const lockGoneKinds = new Set<LoyaltyErrorKind>(['conflict', 'not_found']);

const LOCK_DURATION_MS = 60 * 60 * 1000;

export function createRedemptionService(options: RedemptionServiceOptions): RedemptionService {
  const { client, journal, shopUuid, now = Date.now, redeemAttempts = 3, redeemRetryDelayMs = 500 } = options;
  const { initialDelayMs, maxDelayMs } = options.releaseRetry ?? { initialDelayMs: 2_000, maxDelayMs: 60_000 };
  // Voucher uuids only: codes and release keys stay out of the logs.
  const log = (options.logger ?? silentLogger).child({ part: 'vouchers' });
  const retryTimers = new Map<string, NodeJS.Timeout>();
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

  /**
   * What Find Voucher says became of a redemption: redeemed (only if one of ours may have
   * landed: the count rose or no uses are left), lock_lost (ACTIVE: the lock lapsed), or
   * unsettled (still LOCKED, or unusable for another reason).
   */
  function settle(entry: LockEntry, found: VoucherWithRedemptions, mayHaveLanded: boolean) {
    if (mayHaveLanded && (found.status === 'REDEEMED' || found.times_redeemed > entry.timesRedeemedBefore)) {
      return 'redeemed';
    }
    return found.status === 'ACTIVE' ? 'lock_lost' : 'unsettled';
  }

  async function releaseEntry(entry: LockEntry, reason: ReleaseReason, failures = 0): Promise<LockSettlement> {
    const { voucherUuid } = entry;
    try {
      await client.releaseVoucher({ voucher_uuid: voucherUuid, release_key: entry.releaseKey });
      await forget(entry, 'voucher lock released', { reason, failures });
      return 'released';
    } catch (error) {
      if (!(error instanceof LoyaltyError)) throw error;
      if (lockGoneKinds.has(error.kind)) {
        await forget(entry, 'voucher lock already gone', { reason, ...failureFields(error) });
        return 'lock_gone';
      }
      if (closed) return 'retrying';
      const systemReleaseAt = Date.parse(entry.systemReleaseAt);
      const delay = Math.min(initialDelayMs * 2 ** failures, maxDelayMs, Math.max(0, systemReleaseAt - now()));
      log.warn('voucher lock release failed; retrying in the background', {
        voucherUuid,
        reason,
        ...failureFields(error),
        delayMs: delay,
      });
      clearTimeout(retryTimers.get(voucherUuid));
      const timer = setTimeout(() => {
        retryTimers.delete(voucherUuid);
        exclusive(voucherUuid, async () => {
          const current = journal.get(voucherUuid);
          if (!current || closed) return;
          if (now() >= Date.parse(current.systemReleaseAt)) {
            await forget(current, 'voucher lock lapsed before it could be released; the platform released it', { reason });
          } else {
            await releaseEntry(current, reason, failures + 1);
          }
        }).catch((failure: unknown) =>
          log.error('background voucher release failed', { voucherUuid, ...failureFields(failure) }),
        );
      }, delay);
      // A pending release must not keep the process alive: recover() takes over at the next start.
      timer.unref();
      retryTimers.set(voucherUuid, timer);
      return 'retrying';
    }
  }

  async function lock(code: string): Promise<HeldLock> {
    const found = await find(code);
    const voucherUuid = found.uuid;
    return exclusive(voucherUuid, async () => {
      // A release still retrying in the background would make the platform refuse this lock; an
      // unsettled redemption may have landed, and a multi-use voucher would lock again regardless.
      const stale = journal.get(voucherUuid);
      if (stale && (await letGo(stale, 'relock')).outcome === 'redeemed') {
        throw new LoyaltyError({ kind: 'conflict', code: platformErrors.voucherAlreadyRedeemed.code, message: 'this kiosk has just redeemed the voucher' });
      }
      const { lock: held } = (await client.lockVoucher({ voucher_uuid: voucherUuid })).data;
      const entry: LockEntry = {
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

  function redeem(voucherUuid: string, { contactUuid }: { contactUuid?: string } = {}): Promise<RedeemResult> {
    return exclusive(voucherUuid, async () => {
      const held = journal.get(voucherUuid);
      if (!held) throw new Error('No voucher lock is held for this voucher');
      // An earlier redeem() that ended unsettled may have landed: its refusals prove nothing.
      let mayHaveLanded = held.phase === 'redeeming';
      const entry: LockEntry = { ...held, phase: 'redeeming', contactUuid: contactUuid ?? held.contactUuid };
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
          if (error instanceof LoyaltyError && uncertainKinds.has(error.kind)) return undefined;
          throw error;
        });
        if (!found) return unsettled(entry, attempt, failure);
        const state = settle(entry, found, mayHaveLanded);
        if (state === 'redeemed') {
          await forget(entry, 'voucher redeemed (confirmed by Find Voucher)', { attempt, kind: failure.kind });
          return { outcome: 'redeemed', voucher: found, redeemedAt: found.redeemed_at ?? new Date(now()).toISOString() };
        }
        if (state === 'lock_lost') {
          await forget(entry, 'voucher lock lost before the redemption', { attempt, kind: failure.kind });
          return { outcome: 'lock_lost' };
        }
        if (!answerLost) {
          log.info('voucher redemption refused', { voucherUuid, ...failureFields(failure) });
          await releaseEntry(entry, 'refused');
          throw failure;
        }
        if (attempt >= redeemAttempts) return unsettled(entry, attempt, failure);
        await sleep(redeemRetryDelayMs * attempt);
      }
    });
  }

  function unsettled(entry: LockEntry, attempt: number, failure: LoyaltyError): RedeemResult {
    log.warn('voucher redemption unsettled; the lock stays held', { voucherUuid: entry.voucherUuid, attempt, ...failureFields(failure) });
    return { outcome: 'unsettled' };
  }

  /**
   * Lets go of a lock the kiosk no longer needs. One whose redemption may have landed is settled
   * with Find Voucher first, so the shopper and the log hear what really happened; should that
   * fail, releasing is still right: it never redeems, and a landed redemption consumed the lock.
   */
  async function letGo(entry: LockEntry, reason: ReleaseReason): Promise<LetGoResult> {
    if (entry.phase === 'redeeming') {
      const found = await find(entry.code).catch((error: unknown) => {
        log.warn('could not settle a voucher redemption before letting go of its lock; releasing', {
          voucherUuid: entry.voucherUuid,
          reason,
          ...failureFields(error),
        });
        return undefined;
      });
      const state = found && settle(entry, found, true);
      if (found && state === 'redeemed') {
        await forget(entry, 'voucher redemption had landed', { reason });
        return { outcome: 'redeemed', voucher: found, redeemedAt: found.redeemed_at ?? new Date(now()).toISOString() };
      }
      if (state === 'lock_lost') {
        await forget(entry, 'voucher lock had lapsed', { reason });
        return { outcome: 'lock_gone' };
      }
    }
    return { outcome: await releaseEntry(entry, reason) };
  }

  function release(voucherUuid: string, reason: ReleaseReason): Promise<ReleaseResult> {
    return exclusive(voucherUuid, async () => {
      const entry = journal.get(voucherUuid);
      return entry ? letGo(entry, reason) : { outcome: 'not_held' };
    });
  }

  /** Settles every journaled lock, each in its turn with any operation on the same voucher. */
  async function settleAll(settleOne: (entry: LockEntry) => Promise<SettledLock['outcome']>): Promise<SettledLock[]> {
    const settled = await Promise.all(
      journal.entries().map(({ voucherUuid }) =>
        exclusive(voucherUuid, async () => {
          const entry = journal.get(voucherUuid);
          return entry && { voucherUuid, outcome: await settleOne(entry) };
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
    releaseAll: (reason) => settleAll(async (entry) => (await letGo(entry, reason)).outcome),
    // A lock left by a crash: the shopper is gone, so a LOCKED voucher is released, never redeemed.
    recover: () => settleAll(async (entry) => (await letGo(entry, 'startup')).outcome),
    close,
  };
}

/** Kind and code only: the platform's message may quote the voucher code. */
function failureFields(error: unknown): Record<string, unknown> {
  return error instanceof LoyaltyError ? { kind: error.kind, code: error.code } : { error };
}
