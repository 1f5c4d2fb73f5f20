import { describe, expect, it } from 'vitest';
import { TYPED_GUESS_LIMIT, TYPED_PAUSE_SECONDS } from '../../common/contract.std.ts';
import { TypedCodeGuard } from './typed-code-guard.std.ts';

const unknown = { kind: 'unknown' } as const;
const found = { kind: 'inactive_card' } as const;
const refused = expect.objectContaining({ code: 'too_many_attempts' });

describe('TypedCodeGuard', () => {
  it('pauses lookups after five unknown values in a row, for thirty seconds', () => {
    let now = 1_000;
    const guard = new TypedCodeGuard(() => now);
    for (let i = 0; i < TYPED_GUESS_LIMIT; i++) guard.reserve().settle(unknown);
    expect(() => guard.reserve()).toThrow(refused);
    now += TYPED_PAUSE_SECONDS * 1000 - 1;
    expect(() => guard.reserve()).toThrow(refused);
    now += 1;
    expect(() => guard.reserve()).not.toThrow();
  });

  it('starts counting again after a value that was found', () => {
    const guard = new TypedCodeGuard(() => 0);
    for (let i = 0; i < TYPED_GUESS_LIMIT - 1; i++) guard.reserve().settle(unknown);
    guard.reserve().settle(found);
    for (let i = 0; i < TYPED_GUESS_LIMIT - 1; i++) guard.reserve().settle(unknown);
    guard.reserve().settle(unknown);
    expect(() => guard.reserve()).toThrow(refused);
  });

  it('admits no more guesses at once than the limit, before any is answered (#20 §7)', () => {
    const guard = new TypedCodeGuard(() => 0);
    const underWay = Array.from({ length: TYPED_GUESS_LIMIT }, () => guard.reserve());
    expect(() => guard.reserve()).toThrow(refused);
    // A lookup that failed (network) is no guess: its place comes back.
    underWay[0]!.settle(null);
    underWay[0]!.settle(unknown);
    const next = guard.reserve();
    for (const guess of [...underWay.slice(1), next]) guess.settle(unknown);
    expect(() => guard.reserve()).toThrow(refused);
  });
});
