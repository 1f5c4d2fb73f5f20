import { describe, expect, it } from 'vitest';
import { createRepeatGuard } from './repeat-guard.std.ts';

describe('createRepeatGuard', () => {
  it('reports a value once while it stays in sight', () => {
    const isNew = createRepeatGuard(1500);
    expect(isNew('A', 0)).toBe(true);
    expect(isNew('A', 1000)).toBe(false);
    expect(isNew('A', 2000)).toBe(false);
    expect(isNew('A', 3400)).toBe(false);
  });

  it('reports it again once it has been gone for the window', () => {
    const isNew = createRepeatGuard(1500);
    expect(isNew('A', 0)).toBe(true);
    expect(isNew('A', 1499)).toBe(false);
    expect(isNew('A', 2999)).toBe(true);
  });

  it('tracks values independently', () => {
    const isNew = createRepeatGuard(1500);
    expect(isNew('A', 0)).toBe(true);
    expect(isNew('B', 10)).toBe(true);
    expect(isNew('A', 20)).toBe(false);
    expect(isNew('B', 1600)).toBe(true);
  });
});
