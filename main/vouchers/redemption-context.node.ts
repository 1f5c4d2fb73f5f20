import type { VoucherWithRedemptions } from '../../api/vouchers.std.ts';
import { keyedQueue } from '../../base/queue.std.ts';
import { silentLogger, type Logger } from '../logging/logger.std.ts';
import type { LoyaltyClient } from '../loyalty/client.node.ts';
import { LoyaltyError, type LoyaltyErrorKind } from '../loyalty/errors.std.ts';
import type { HeldLockEntry, LockEntry, LockJournal } from './lock-journal.node.ts';
import type { Redeemed } from './redemption-outcomes.std.ts';

/** What the redemption steps (lock, redeem, release and retry, recovery) share. */

/** listVouchers: only to look up, at recovery, a damaged journal's uuids whose code was lost. */
export type VoucherClient = Pick<LoyaltyClient, 'findVoucher' | 'lockVoucher' | 'redeemVoucher' | 'releaseVoucher' | 'listVouchers'>;

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

export interface RedemptionContext {
  readonly client: VoucherClient;
  readonly journal: LockJournal;
  readonly shopUuid: () => string;
  readonly now: () => number;
  /** Voucher uuids only: codes and release keys stay out of the logs. */
  readonly log: Logger;
  readonly redeemAttempts: number;
  readonly redeemRetryDelayMs: number;
  readonly releaseRetry: { initialDelayMs: number; maxDelayMs: number };
  /** Background releases waiting for their next try, by voucher uuid. */
  readonly retryTimers: Map<string, NodeJS.Timeout>;
  /** Vouchers a redeem() is under way for: a second confirm is answered at once. */
  readonly redeeming: Set<string>;
  /** Set by close(): no background release starts any more. */
  closed: boolean;
  /** One operation per voucher at a time: an idle release waits for a redeem in flight. */
  exclusive<T>(voucherUuid: string, task: () => Promise<T>): Promise<T>;
}

export function createRedemptionContext(options: RedemptionServiceOptions): RedemptionContext {
  const perVoucher = keyedQueue<string>();
  return {
    client: options.client,
    journal: options.journal,
    shopUuid: options.shopUuid,
    now: options.now ?? Date.now,
    log: (options.logger ?? silentLogger).child({ part: 'vouchers' }),
    redeemAttempts: options.redeemAttempts ?? 3,
    redeemRetryDelayMs: options.redeemRetryDelayMs ?? 500,
    releaseRetry: options.releaseRetry ?? { initialDelayMs: 2_000, maxDelayMs: 60_000 },
    retryTimers: new Map(),
    redeeming: new Set(),
    closed: false,
    exclusive: (voucherUuid, task) => perVoucher.run(voucherUuid, task),
  };
}

// No answer, or one that cannot be trusted: the request may have been carried out.
export const uncertainKinds = new Set<LoyaltyErrorKind>(['network', 'timeout', 'server', 'maintenance', 'bad_response']);
export const isUncertain = (error: unknown) => error instanceof LoyaltyError && uncertainKinds.has(error.kind);

/** Kind and code only: the platform's message may quote the voucher code. */
export function failureFields(error: unknown): Record<string, unknown> {
  return error instanceof LoyaltyError ? { kind: error.kind, code: error.code } : { error };
}

export async function findVoucher(ctx: RedemptionContext, code: string): Promise<VoucherWithRedemptions> {
  return (await ctx.client.findVoucher({ code })).data;
}

/**
 * Whether one of this kiosk's redemptions landed, as Find Voucher tells it: under the lock
 * nobody else can redeem, so a count above the one read under the lock, or a redemption later
 * than the lock, is ours. (Timestamps are whole seconds: only a strictly later one counts.)
 */
export function landed(entry: HeldLockEntry, found: VoucherWithRedemptions): boolean {
  if (found.status === 'REDEEMED' || found.times_redeemed > entry.timesRedeemedBefore) return true;
  return found.redeemed_at !== null && Date.parse(found.redeemed_at) > Date.parse(entry.lockedAt);
}

export function redeemedAnswer(ctx: RedemptionContext, found: VoucherWithRedemptions): Redeemed {
  return { outcome: 'redeemed', voucher: found, redeemedAt: found.redeemed_at ?? new Date(ctx.now()).toISOString() };
}

/** Done with a voucher: its background release stops and its journal entry goes. */
export async function forget(ctx: RedemptionContext, entry: LockEntry, message: string, fields: Record<string, unknown> = {}) {
  clearTimeout(ctx.retryTimers.get(entry.voucherUuid));
  ctx.retryTimers.delete(entry.voucherUuid);
  try {
    await ctx.journal.remove(entry.voucherUuid);
  } catch (error) {
    // The outcome stands (a landed redemption is still the shopper's); the entry left on disk is
    // settled again at the next start, which finds the same outcome.
    ctx.log.error('voucher lock journal could not be written; the entry is settled again at the next start', {
      voucherUuid: entry.voucherUuid,
      error: String(error),
    });
  }
  ctx.log.info(message, { voucherUuid: entry.voucherUuid, ...fields });
}

/**
 * The platform no longer holds the lock of a redemption that may have landed: the entry stays,
 * and the voucher is not locked again, until Find Voucher tells whether it did.
 */
export async function keepUnsettled(ctx: RedemptionContext, entry: HeldLockEntry, message: string, fields: Record<string, unknown>) {
  await ctx.journal.put({ ...entry, phase: 'settling' });
  ctx.log.warn(message, { voucherUuid: entry.voucherUuid, ...fields });
}
