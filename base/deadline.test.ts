import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { settlesWithin } from './deadline.std.ts';

describe('settlesWithin', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('says true for work that resolves or rejects in time, and false once the time is up', async () => {
    expect(await settlesWithin(Promise.resolve('done'), 1_000)).toBe(true);
    expect(await settlesWithin(Promise.reject(new Error('failed')), 1_000)).toBe(true);

    const never = settlesWithin(new Promise(() => {}), 1_000);
    let answer: boolean | undefined;
    void never.then((settled) => (answer = settled));
    await vi.advanceTimersByTimeAsync(999);
    expect(answer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(answer).toBe(false);
  });

  it('leaves no timer behind, and swallows a rejection that comes after the time is up', async () => {
    let reject!: (error: Error) => void;
    const late = new Promise((_resolve, fail) => (reject = fail));
    const settled = settlesWithin(late, 50);
    await vi.advanceTimersByTimeAsync(50);
    expect(await settled).toBe(false);
    reject(new Error('too late'));
    expect(vi.getTimerCount()).toBe(0);
    expect(await settlesWithin(Promise.resolve(), 50)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
