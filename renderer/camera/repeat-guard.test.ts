import { describe, expect, it } from 'vitest';
import { createRepeatGuard } from './repeat-guard.std.ts';

describe('createRepeatGuard', () => {
  it('reports a value once while it stays in sight', () => {
    const fresh = createRepeatGuard(1500);
    expect(fresh(['A'], 0)).toEqual(['A']);
    expect(fresh(['A'], 1000)).toEqual([]);
    expect(fresh(['A'], 2000)).toEqual([]);
    expect(fresh(['A'], 3400)).toEqual([]);
  });

  it('reports it again once a decode has missed it for the window', () => {
    const fresh = createRepeatGuard(1500);
    expect(fresh(['A'], 0)).toEqual(['A']);
    expect(fresh([], 1499)).toEqual([]);
    expect(fresh(['A'], 1600)).toEqual([]);
    expect(fresh([], 3100)).toEqual([]);
    expect(fresh(['A'], 3200)).toEqual(['A']);
  });

  it('reports nothing twice when decodes come seconds apart with the code still in sight', () => {
    const fresh = createRepeatGuard(1500);
    expect(fresh(['A', 'B'], 0)).toEqual(['A', 'B']);
    expect(fresh(['A', 'B'], 4000)).toEqual([]);
    expect(fresh(['B', 'A'], 9000)).toEqual([]);
  });

  it('reports a value once even when one decode holds it twice', () => {
    expect(createRepeatGuard(1500)(['A', 'A'], 0)).toEqual(['A']);
  });

  it('tracks values independently', () => {
    const fresh = createRepeatGuard(1500);
    expect(fresh(['A'], 0)).toEqual(['A']);
    expect(fresh(['B'], 10)).toEqual(['B']);
    expect(fresh(['A'], 20)).toEqual([]);
    expect(fresh(['A'], 1600)).toEqual([]);
    expect(fresh(['B'], 1700)).toEqual(['B']);
  });
});
