import { describe, expect, it } from 'vitest';
import { TYPED_GUESS_LIMIT, TYPED_PAUSE_SECONDS } from '../../common/contract.std.ts';
import { GuessGuard } from './guess-guard.std.ts';

const refused = expect.objectContaining({ code: 'too_many_attempts' });

describe('GuessGuard', () => {
  it('pauses lookups after five unknown values, for thirty seconds', () => {
    let now = 1_000;
    const guard = new GuessGuard(() => now);
    for (let i = 0; i < TYPED_GUESS_LIMIT; i++) guard.reserve().settle(true);
    expect(() => guard.reserve()).toThrow(refused);
    now += TYPED_PAUSE_SECONDS * 1000 - 1;
    expect(() => guard.reserve()).toThrow(refused);
    now += 1;
    expect(() => guard.reserve()).not.toThrow();
  });

  it('forgets no miss when a value is found: the shopper\'s own card between guesses does not reset the count (#28 §10)', () => {
    const guard = new GuessGuard(() => 0);
    for (let i = 0; i < TYPED_GUESS_LIMIT - 1; i++) guard.reserve().settle(true);
    guard.reserve().settle(false);
    guard.reserve().settle(true);
    expect(() => guard.reserve()).toThrow(refused);
  });

  it('forgets a miss only once it is thirty seconds old: misses spread out never pause (#28 §10)', () => {
    let now = 0;
    const guard = new GuessGuard(() => now);
    const spacing = (TYPED_PAUSE_SECONDS * 1000) / (TYPED_GUESS_LIMIT - 1);
    // Five misses within thirty seconds, a found value between each: paused.
    for (let i = 0; i < TYPED_GUESS_LIMIT; i++, now += spacing - 1) {
      guard.reserve().settle(false);
      guard.reserve().settle(true);
    }
    expect(() => guard.reserve()).toThrow(refused);

    // Misses a little further apart: each fifth finds the first forgotten, so none pauses.
    const spread = new GuessGuard(() => now);
    for (let i = 0; i < 3 * TYPED_GUESS_LIMIT; i++, now += spacing + 1) spread.reserve().settle(true);
    expect(() => spread.reserve()).not.toThrow();
  });

  it('admits no more guesses at once than the limit, before any is answered (#20 §7)', () => {
    const guard = new GuessGuard(() => 0);
    const underWay = Array.from({ length: TYPED_GUESS_LIMIT }, () => guard.reserve());
    expect(() => guard.reserve()).toThrow(refused);
    // A lookup that failed (network) is no guess: its place comes back.
    underWay[0]!.settle(false);
    underWay[0]!.settle(true);
    const next = guard.reserve();
    for (const guess of [...underWay.slice(1), next]) guess.settle(true);
    expect(() => guard.reserve()).toThrow(refused);
  });
});
