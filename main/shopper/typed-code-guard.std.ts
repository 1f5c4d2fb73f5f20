import { TYPED_GUESS_LIMIT, TYPED_PAUSE_SECONDS } from '../../common/contract.std.ts';
import type { LookupResult } from '../../common/shopper-views.std.ts';
import { BridgeFailure } from '../bridge/dispatcher.std.ts';

/**
 * Against guessing card numbers and voucher codes on the keyboard: after TYPED_GUESS_LIMIT
 * unknown typed values in a row, typed lookups are refused for TYPED_PAUSE_SECONDS. The count
 * lives in main and outlasts the visit, so leaving and coming back (or reloading the page) does
 * not reset it; a value that is found does.
 */
export class TypedCodeGuard {
  #unknownInARow = 0;
  #pausedUntil = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Throws `too_many_attempts` while typing is paused. */
  admit(): void {
    if (this.now() < this.#pausedUntil) {
      throw new BridgeFailure('too_many_attempts', `typed lookups are paused for ${TYPED_PAUSE_SECONDS} s after ${TYPED_GUESS_LIMIT} unknown values`);
    }
  }

  record(result: LookupResult): void {
    if (result.kind !== 'unknown') {
      this.#unknownInARow = 0;
      return;
    }
    this.#unknownInARow += 1;
    if (this.#unknownInARow >= TYPED_GUESS_LIMIT) {
      this.#unknownInARow = 0;
      this.#pausedUntil = this.now() + TYPED_PAUSE_SECONDS * 1000;
    }
  }
}
