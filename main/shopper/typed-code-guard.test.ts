import { describe, expect, it } from 'vitest';
import { TYPED_GUESS_LIMIT, TYPED_PAUSE_SECONDS } from '../../common/contract.std.ts';
import { TypedCodeGuard } from './typed-code-guard.std.ts';

const unknown = { kind: 'unknown' } as const;
const found = { kind: 'inactive_card' } as const;

describe('TypedCodeGuard', () => {
  it('pauses typed lookups after five unknown values in a row, for thirty seconds', () => {
    let now = 1_000;
    const guard = new TypedCodeGuard(() => now);
    for (let i = 0; i < TYPED_GUESS_LIMIT; i++) {
      guard.admit();
      guard.record(unknown);
    }
    expect(() => guard.admit()).toThrow(expect.objectContaining({ code: 'too_many_attempts' }));
    now += TYPED_PAUSE_SECONDS * 1000 - 1;
    expect(() => guard.admit()).toThrow();
    now += 1;
    expect(() => guard.admit()).not.toThrow();
  });

  it('starts counting again after a value that was found', () => {
    const guard = new TypedCodeGuard(() => 0);
    for (let i = 0; i < TYPED_GUESS_LIMIT - 1; i++) guard.record(unknown);
    guard.record(found);
    for (let i = 0; i < TYPED_GUESS_LIMIT - 1; i++) guard.record(unknown);
    expect(() => guard.admit()).not.toThrow();
    guard.record(unknown);
    expect(() => guard.admit()).toThrow();
  });
});
