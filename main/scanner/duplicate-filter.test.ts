import { describe, expect, it } from 'vitest';
import { DuplicateFilter } from './duplicate-filter.std.ts';

describe('DuplicateFilter', () => {
  it('treats the same value within 500 ms as one scan, and again after', () => {
    const filter = new DuplicateFilter();
    expect(filter.accept('A', 1000)).toBe(true);
    expect(filter.accept('A', 1499)).toBe(false);
    expect(filter.accept('A', 1999)).toBe(true);
  });

  it('measures the window from the latest sighting, so a held card stays one scan', () => {
    const filter = new DuplicateFilter();
    expect([0, 400, 800, 1200].map((at) => filter.accept('A', at))).toEqual([true, false, false, false]);
  });

  it('lets a different value through at once', () => {
    const filter = new DuplicateFilter();
    expect(filter.accept('A', 0)).toBe(true);
    expect(filter.accept('B', 1)).toBe(true);
    expect(filter.accept('A', 2)).toBe(true);
  });
});
