import { TYPED_GUESS_LIMIT, TYPED_PAUSE_SECONDS } from '../../common/contract.std.ts';
import type { LookupResult } from '../../common/shopper-views.std.ts';
import { BridgeFailure } from '../bridge/dispatcher.std.ts';

/** A guess's place, taken before its lookup: settle it with the lookup's result (null when the lookup failed). */
export interface GuessReservation {
  settle(result: LookupResult | null): void;
}

/**
 * Against guessing card numbers and voucher codes: after TYPED_GUESS_LIMIT unknown values in a
 * row, lookups are refused for TYPED_PAUSE_SECONDS. A guess takes its place before its lookup, so
 * guesses sent at once cannot all slip in before the first is counted. The count lives in main and
 * outlasts the visit, so leaving and coming back (or reloading the page) does not reset it; a value
 * that is found does.
 */
export class TypedCodeGuard {
  #unknownInARow = 0;
  /** Guesses whose lookup is under way: each may yet be unknown. */
  #underWay = 0;
  #pausedUntil = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Throws `too_many_attempts` while paused, or while the guesses under way could reach the limit. */
  reserve(): GuessReservation {
    if (this.now() < this.#pausedUntil || this.#unknownInARow + this.#underWay >= TYPED_GUESS_LIMIT) {
      throw new BridgeFailure('too_many_attempts', `lookups are paused for ${TYPED_PAUSE_SECONDS} s after ${TYPED_GUESS_LIMIT} unknown values`);
    }
    this.#underWay += 1;
    let settled = false;
    return {
      settle: (result) => {
        if (settled) return;
        settled = true;
        this.#underWay -= 1;
        if (result) this.#record(result);
      },
    };
  }

  #record(result: LookupResult): void {
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
