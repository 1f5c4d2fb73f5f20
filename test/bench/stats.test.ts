import { describe, expect, it } from 'vitest';
import { formatTable, percentile, summarize } from './stats.std.ts';

describe('percentile', () => {
  it('interpolates between the closest ranks', () => {
    expect(percentile([1, 2, 3, 4, 5], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2.5);
    expect(percentile([10, 20, 30, 40, 50], 25)).toBe(20);
    expect(percentile([0, 10], 99)).toBeCloseTo(9.9);
  });

  it('does not depend on the input order, nor change the input', () => {
    const values = [5, 1, 4, 2, 3];
    expect(percentile(values, 50)).toBe(3);
    expect(values).toEqual([5, 1, 4, 2, 3]);
  });

  it('takes the minimum at p0 and the maximum at p100', () => {
    expect(percentile([3, -1, 7, 2], 0)).toBe(-1);
    expect(percentile([3, -1, 7, 2], 100)).toBe(7);
  });

  it('gives the single value of a one-element array at every p', () => {
    for (const p of [0, 1, 50, 99, 100]) expect(percentile([42], p)).toBe(42);
  });

  it('sorts numerically, not as text', () => {
    expect(percentile([9, 10, 100], 0)).toBe(9);
    expect(percentile([9, 10, 100], 100)).toBe(100);
  });

  it('refuses no values and p outside 0–100', () => {
    expect(() => percentile([], 50)).toThrow(RangeError);
    expect(() => percentile([1], -1)).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow(RangeError);
    expect(() => percentile([1], Number.NaN)).toThrow(RangeError);
  });
});

describe('summarize', () => {
  it('reports n, p50, p95, p99, min, max and mean', () => {
    const values = Array.from({ length: 101 }, (_, index) => index);
    expect(summarize(values)).toEqual({ n: 101, p50: 50, p95: 95, p99: 99, min: 0, max: 100, mean: 50 });
  });
});

describe('formatTable', () => {
  it('aligns the first column left and the others right, then the notes', () => {
    const text = formatTable({
      title: 'T',
      columns: ['name', 'p50'],
      rows: [
        ['a', '1.00 ms'],
        ['longer', '10.00 ms'],
      ],
      notes: ['note'],
    });
    expect(text.split('\n')).toEqual(['T', 'name         p50', '------  --------', 'a        1.00 ms', 'longer  10.00 ms', '  note']);
  });
});
