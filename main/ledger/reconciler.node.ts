import type { VoucherWithRedemptions } from '../../api/vouchers.std.ts';
import type { Reconciliation } from '../../common/report-views.std.ts';
import { LoyaltyError } from '../loyalty/errors.std.ts';
import type { Logger } from '../logging/logger.std.ts';
import type { Ledger } from './ledger.node.ts';
import { checkVoucher, type VoucherCheck, type VoucherFacts } from './voucher-check.std.ts';

/**
 * Reconciliation (#30 §3): each closed shift's `redeemed` rows checked against the platform, one
 * Find Voucher at a time, and the attempts the ledger still has open settled by its answer. It
 * starts after each Z and at every start, goes on from where a restart stopped it (the ledger
 * keeps each voucher's check), waits out the platform's 429s, and checks only while the kiosk is
 * idle: a shopper never waits behind it.
 */

export interface ReconcilerOptions {
  ledger: Pick<Ledger, 'status' | 'record' | 'shiftsToReconcile' | 'vouchersToCheck' | 'recordCheck' | 'finishReconciliation' | 'onShiftClosed'>;
  /** Find Voucher by code; throws LoyaltyError (`not_found` for a code the platform does not know). */
  findVoucher: (code: string) => Promise<VoucherWithRedemptions>;
  /** Vouchers the lock journal holds: their open attempts are its to settle. */
  heldVouchers: () => ReadonlySet<string>;
  /** True once no shopper is at the kiosk and no lock is held; false after a while without (it is asked again). */
  whenIdle: () => Promise<boolean>;
  /** Resolves after `ms`: tests pass their own clock. */
  wait: (ms: number) => Promise<void>;
  logger: Logger;
}

/** A 429 without a usable Retry-After: wait this long before asking again. */
export const RATE_LIMIT_FALLBACK_MS = 60_000;
/** The platform away or failing: the next try after this long. */
export const RECONCILE_RETRY_MS = 5 * 60_000;

/** A check that could not be made: the platform is away, or asked to wait (`retryAfterMs`). */
class NotChecked {
  constructor(
    readonly why: LoyaltyError,
    readonly retryAfterMs: number | null,
  ) {}
}

export class Reconciler {
  readonly #options: ReconcilerOptions;
  readonly #log: Logger;
  #draining: Promise<void> | null = null;
  #again = false;
  #closed = false;
  readonly #stopListening: () => void;

  constructor(options: ReconcilerOptions) {
    this.#options = options;
    this.#log = options.logger.child({ part: 'reconciliation' });
    this.#stopListening = options.ledger.onShiftClosed(() => void this.run());
  }

  /** Reconciles every closed shift not yet reconciled; resolves when none is left, or it must wait for a later try. */
  run(): Promise<void> {
    if (this.#draining) {
      this.#again = true;
      return this.#draining;
    }
    // Never thrown at whoever nudged it (a Z, a start): a ledger that cannot be read or written now is tried again later.
    this.#draining = this.#drain()
      .catch((error: unknown) => this.#tryAgainLater({ event: 'ledger.reconcile_failed', message: 'reconciliation stopped: the ledger failed', error }))
      .finally(() => (this.#draining = null));
    return this.#draining;
  }

  /**
   * The open shift checked now, for a manager at the console (no idle wait: the console is the
   * screen). Nothing is kept but the settling rows: the shift is checked again after its Z. Any
   * failure or 429 stops it: the answer is then pending, with what was checked.
   */
  async checkOpenShift(): Promise<Reconciliation> {
    const { ledger, heldVouchers } = this.#options;
    const shift = ledger.status().shift;
    const vouchers = shift === null ? [] : ledger.vouchersToCheck(shift, heldVouchers());
    const result: Reconciliation = { state: 'pending', checked: 0, vouchers: vouchers.length, mismatches: [], resolved: 0, finishedAt: null };
    for (const facts of vouchers) {
      const check = await this.#check(facts);
      if (check instanceof NotChecked) return result;
      this.#settle(check);
      result.checked++;
      result.resolved += check.settled.length;
      if (check.mismatch) result.mismatches.push(check.mismatch);
    }
    return { ...result, state: 'done', finishedAt: new Date().toISOString() };
  }

  close(): void {
    this.#closed = true;
    this.#stopListening();
  }

  async #drain(): Promise<void> {
    do {
      this.#again = false;
      for (const shift of this.#options.ledger.shiftsToReconcile()) {
        const stopped = await this.#reconcile(shift);
        if (stopped === 'closed') return;
        if (stopped) return this.#tryAgainLater({ event: 'ledger.reconcile_paused', message: 'reconciliation paused: the platform did not answer', error: stopped.why.message });
      }
    } while (this.#again && !this.#closed);
  }

  /** Checks what is left of `shift`; answers why it stopped, or null once the shift is reconciled. */
  async #reconcile(shift: number): Promise<NotChecked | 'closed' | null> {
    const { ledger, heldVouchers, whenIdle, wait } = this.#options;
    for (const facts of ledger.vouchersToCheck(shift, heldVouchers())) {
      while (!(await whenIdle())) if (this.#closed) return 'closed';
      if (this.#closed) return 'closed';
      let check = await this.#check(facts);
      while (check instanceof NotChecked && check.retryAfterMs !== null) {
        this.#log.info('the platform asked to wait: reconciliation goes on after it', { event: 'ledger.reconcile_waits', shift, waitMs: check.retryAfterMs });
        await wait(check.retryAfterMs);
        if (this.#closed) return 'closed';
        check = await this.#check(facts);
      }
      if (check instanceof NotChecked) return check;
      this.#settle(check);
      ledger.recordCheck(shift, { voucherUuid: facts.voucherUuid, mismatch: check.mismatch, resolved: check.settled.length });
    }
    const result = ledger.finishReconciliation(shift);
    const fields = { event: 'ledger.reconciled', shift, vouchers: result.vouchers, mismatches: result.mismatches.length, resolved: result.resolved };
    if (result.mismatches.length > 0) this.#log.warn('shift reconciled: the platform disagrees with the ledger', fields);
    else this.#log.info('shift reconciled with the platform', fields);
    return null;
  }

  async #check(facts: VoucherFacts): Promise<VoucherCheck | NotChecked> {
    try {
      return checkVoucher(facts, await this.#options.findVoucher(facts.voucherCode));
    } catch (error) {
      if (!(error instanceof LoyaltyError)) throw error;
      if (error.kind === 'not_found') return checkVoucher(facts, null);
      return new NotChecked(error, error.kind === 'rate_limited' ? (error.retryAfterMs ?? RATE_LIMIT_FALLBACK_MS) : null);
    }
  }

  /** The open attempts' endings, as the platform told them: a correction is a new row. */
  #settle({ settled }: VoucherCheck): void {
    for (const { attempt, landed, redeemedAt } of settled) {
      this.#options.ledger.record(
        landed ? { kind: 'redeemed', attempt, settledBy: 'find', reason: 'reconciled', redeemedAt } : { kind: 'released', attempt, reason: 'reconciled' },
      );
    }
  }

  #tryAgainLater({ event, message, error }: { event: string; message: string; error: unknown }): void {
    if (this.#closed) return;
    this.#log.warn(message, { event, error: error instanceof Error ? error.message : String(error), retryInMs: RECONCILE_RETRY_MS });
    void this.#options.wait(RECONCILE_RETRY_MS).then(() => {
      if (!this.#closed) void this.run();
    });
  }

}
