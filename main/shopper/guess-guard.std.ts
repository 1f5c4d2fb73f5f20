import { TYPED_GUESS_LIMIT, TYPED_PAUSE_SECONDS } from '../../common/contract.std.ts';
import { BridgeFailure } from '../bridge/dispatcher.std.ts';

const PAUSE_MS = TYPED_PAUSE_SECONDS * 1000;

/** A guess's place, taken before its lookup: settle it with whether the value was unknown (false when the lookup failed). */
export interface GuessReservation {
  settle(missed: boolean): void;
}

/**
 * Against guessing card numbers, voucher codes and e-mail addresses: TYPED_GUESS_LIMIT unknown
 * values within TYPED_PAUSE_SECONDS pause every lookup for TYPED_PAUSE_SECONDS. A guess takes its
 * place before its lookup, so guesses sent at once cannot all slip in before the first is counted.
 * The misses live in main, one record for every connection, and outlast the visit.
 *
 * A miss is forgotten only with time, never because a value was found: an attacker's own card
 * between guesses would otherwise keep the count from reaching the limit. So no more than
 * TYPED_GUESS_LIMIT misses land in any TYPED_PAUSE_SECONDS, whatever is found between them.
 */
export class GuessGuard {
  /** When each miss of the last TYPED_PAUSE_SECONDS was counted, oldest first. */
  #misses: number[] = [];
  /** Guesses whose lookup is under way: each may yet be a miss. */
  #underWay = 0;
  #pausedUntil = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Throws `too_many_attempts` while paused, or while the guesses under way could reach the limit. */
  reserve(): GuessReservation {
    this.#forgetOldMisses();
    if (this.now() < this.#pausedUntil || this.#misses.length + this.#underWay >= TYPED_GUESS_LIMIT) {
      throw new BridgeFailure('too_many_attempts', `lookups are paused for ${TYPED_PAUSE_SECONDS} s after ${TYPED_GUESS_LIMIT} unknown values`);
    }
    this.#underWay += 1;
    let settled = false;
    return {
      settle: (missed) => {
        if (settled) return;
        settled = true;
        this.#underWay -= 1;
        if (missed) this.#recordMiss();
      },
    };
  }

  #recordMiss(): void {
    this.#forgetOldMisses();
    this.#misses.push(this.now());
    if (this.#misses.length >= TYPED_GUESS_LIMIT) this.#pausedUntil = this.now() + PAUSE_MS;
  }

  #forgetOldMisses(): void {
    const forgetBefore = this.now() - PAUSE_MS;
    while (this.#misses.length > 0 && this.#misses[0]! <= forgetBefore) this.#misses.shift();
  }
}
