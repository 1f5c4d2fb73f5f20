import type { VoucherWithRedemptions } from '../../api/vouchers.std.ts';
import { keyedQueue } from '../../base/queue.std.ts';
import { silentLogger, type Logger } from '../logging/logger.std.ts';
import type { LoyaltyClient } from '../loyalty/client.node.ts';
import { LoyaltyError, type LoyaltyErrorKind } from '../loyalty/errors.std.ts';
import type { AttemptFacts, LedgerEntry } from '../ledger/ledger-events.std.ts';
import { LedgerUnavailable, type Ledger } from '../ledger/ledger.node.ts';
import type { HeldLockEntry, LockEntry, LockJournal } from './lock-journal.node.ts';
import type { Redeemed } from './redemption-outcomes.std.ts';
import type { RedemptionProof } from '../../common/shopper-views.std.ts';

/** What the redemption steps (lock, redeem, release and retry, recovery) share. */

/** listVouchers: only to look up, at recovery, a damaged journal's uuids whose code was lost. */
export type VoucherClient = Pick<LoyaltyClient, 'findVoucher' | 'lockVoucher' | 'redeemVoucher' | 'releaseVoucher' | 'listVouchers'>;

export interface RedemptionServiceOptions {
  client: VoucherClient;
  journal: LockJournal;
  /** Where every event of a redemption is recorded, before its journal entry goes. */
  ledger: RedemptionLedger;
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

/** What the redemption steps need of the ledger. */
export type RedemptionLedger = Pick<Ledger, 'record' | 'assertWritable' | 'redeemedRowOf'>;

/** A ledger row as a step tells it: what happened; the attempt's facts come from its journal entry. */
export type LedgerEvent = Omit<LedgerEntry, 'attempt'>;

export interface RedemptionContext {
  readonly client: VoucherClient;
  readonly journal: LockJournal;
  readonly ledger: RedemptionLedger;
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
  /** The count under each new lock, being read beside the confirm screen, by voucher uuid. */
  readonly counting: Map<string, Promise<unknown>>;
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
    ledger: options.ledger,
    shopUuid: options.shopUuid,
    now: options.now ?? Date.now,
    log: (options.logger ?? silentLogger).child({ part: 'vouchers' }),
    redeemAttempts: options.redeemAttempts ?? 3,
    redeemRetryDelayMs: options.redeemRetryDelayMs ?? 500,
    releaseRetry: options.releaseRetry ?? { initialDelayMs: 2_000, maxDelayMs: 60_000 },
    retryTimers: new Map(),
    redeeming: new Set(),
    counting: new Map(),
    closed: false,
    exclusive: (voucherUuid, task) => perVoucher.run(voucherUuid, task),
  };
}

// No answer, or one that cannot be trusted: the request may have been carried out.
export const uncertainKinds = new Set<LoyaltyErrorKind>(['network', 'timeout', 'server', 'maintenance', 'bad_response']);
export const isUncertain = (error: unknown) => error instanceof LoyaltyError && uncertainKinds.has(error.kind);

/** A refusal as the ledger keeps it: the platform's error code, else the kind of failure. */
export const refusalCode = (failure: LoyaltyError) => (failure.code !== undefined ? String(failure.code) : failure.kind);

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
  // The count is known in every entry a Redeem went out for (the journal refuses one without it).
  if (found.status === 'REDEEMED' || (entry.timesRedeemedBefore !== null && found.times_redeemed > entry.timesRedeemedBefore)) return true;
  return found.redeemed_at !== null && Date.parse(found.redeemed_at) > Date.parse(entry.lockedAt);
}

/** The ledger's row of a redemption Find Voucher showed had landed. */
export const redeemedByFind = (found: VoucherWithRedemptions, reason: string | null = null): LedgerEvent => ({
  kind: 'redeemed',
  settledBy: 'find',
  redeemedAt: found.redeemed_at,
  reason,
});

/** The shopper's answer for a redemption that landed, with the proof its ledger row holds. */
export function redeemedAnswer(ctx: RedemptionContext, entry: LockEntry, voucher: VoucherWithRedemptions, redeemedAt?: string): Redeemed {
  return { outcome: 'redeemed', voucher, redeemedAt: redeemedAt ?? voucher.redeemed_at ?? new Date(ctx.now()).toISOString(), proof: proofOf(ctx, entry) };
}

/** The proof of the entry's redemption, as its `redeemed` row holds it; null when the ledger has no such row. */
function proofOf(ctx: RedemptionContext, entry: LockEntry): RedemptionProof | null {
  try {
    const row = ctx.ledger.redeemedRowOf(attemptOf(entry).attemptId);
    return row?.proofCode ? { code: row.proofCode, seq: row.seq, at: row.at } : null;
  } catch (error) {
    if (!(error instanceof LedgerUnavailable)) throw error;
    return null;
  }
}

/** The attempt an entry journals, as the ledger records it (an older journal's entry gets an id from its own facts). */
export function attemptOf(entry: LockEntry): AttemptFacts {
  return {
    attemptId: entry.attemptId ?? `${entry.voucherUuid}@${entry.phase === 'locking' ? entry.intendedAt : entry.lockedAt}`,
    voucherUuid: entry.voucherUuid,
    voucherCode: entry.code,
    voucherName: entry.voucherName ?? null,
    promotionName: entry.promotionName ?? null,
    contactUuid: entry.contactUuid ?? null,
    identifiedBy: entry.identifiedBy ?? null,
  };
}

/**
 * Writes the entry's row of `event`; false when the ledger cannot take it (logged). Thrown
 * otherwise: a row the ledger refuses for its content is a bug, not a full disk.
 */
export function recordEvent(ctx: RedemptionContext, entry: LockEntry, event: LedgerEvent): boolean {
  try {
    ctx.ledger.record({ ...event, attempt: attemptOf(entry) });
    return true;
  } catch (error) {
    if (!(error instanceof LedgerUnavailable)) throw error;
    ctx.log.error('ledger row not written', { event: 'voucher.ledger_row_missing', kind: event.kind, voucherUuid: entry.voucherUuid, error: error.message });
    return false;
  }
}

/**
 * Done with a voucher: its background release stops, its ending (`ending`; null for a lock intent,
 * which never held a lock) goes into the ledger, and then its journal entry goes. An ending the
 * ledger cannot take keeps the entry: the next start settles it again and writes the row then.
 */
export async function forget(ctx: RedemptionContext, entry: LockEntry, ending: LedgerEvent | null, message: string, fields: Record<string, unknown> = {}) {
  clearTimeout(ctx.retryTimers.get(entry.voucherUuid));
  ctx.retryTimers.delete(entry.voucherUuid);
  if (!ending || recordEvent(ctx, entry, ending)) await removeEntry(ctx, entry);
  ctx.log.info(message, { voucherUuid: entry.voucherUuid, ...fields });
}

async function removeEntry(ctx: RedemptionContext, entry: LockEntry) {
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
}

/**
 * The platform no longer holds the lock of a redemption that may have landed: the entry stays,
 * and the voucher is not locked again, until Find Voucher tells whether it did.
 */
export async function keepUnsettled(ctx: RedemptionContext, entry: HeldLockEntry, message: string, fields: Record<string, unknown> & { reason: string }) {
  await ctx.journal.put({ ...entry, phase: 'settling' });
  recordEvent(ctx, entry, { kind: 'unsettled', reason: fields.reason });
  ctx.log.warn(message, { voucherUuid: entry.voucherUuid, ...fields });
}
