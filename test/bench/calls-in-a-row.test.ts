import { describe, expect, it } from 'vitest';
import { longestChain } from './calls-in-a-row.std.ts';

/** A call named for the test, arriving at `from` and answered at `to`. */
const call = (name: string, from: number, to: number) => ({ name, arrivedAt: from, answeredAt: to });
const names = (calls: Array<{ name: string }>) => calls.map((each) => each.name);

describe('calls in a row (the longest chain of calls each after the last one answered)', () => {
  it('is nothing for no calls and one for one call', () => {
    expect(longestChain([])).toEqual([]);
    expect(names(longestChain([call('lock', 0, 100)]))).toEqual(['lock']);
  });

  it('counts calls side by side as one step', () => {
    expect(longestChain([call('card', 0, 100), call('voucher', 1, 102), call('late', 99, 199)])).toHaveLength(1);
  });

  it('counts a call that arrives after the last answer as the next step, also at the same instant', () => {
    expect(names(longestChain([call('find', 0, 100), call('lock', 100, 200), call('redeem', 250, 350)]))).toEqual(['find', 'lock', 'redeem']);
  });

  it('finds the card scan → home shape: the lookups side by side, then balance, vouchers and session side by side', () => {
    const home = [
      call('contact-identifiers/find', 0, 104),
      call('vouchers/find', 1, 106),
      call('portal-sessions', 110, 215),
      call('credit-balance', 111, 212),
      call('vouchers', 112, 214),
    ];
    const chain = longestChain(home);
    expect(chain).toHaveLength(2);
    expect(chain[0]!.name).toMatch(/find/);
    expect(['portal-sessions', 'credit-balance', 'vouchers']).toContain(chain[1]!.name);
  });

  it('follows the longest path, not the first or the longest call', () => {
    // A slow call spans two quick ones in a row: the quick pair is the critical path's length.
    const calls = [call('slow', 0, 300), call('first', 5, 100), call('second', 120, 220), call('third', 230, 330), call('aside', 90, 160)];
    expect(names(longestChain(calls))).toEqual(['first', 'second', 'third']);
  });

  it('takes the calls in any order', () => {
    const inOrder = [call('a', 0, 10), call('b', 20, 30), call('c', 40, 50)];
    expect(names(longestChain([...inOrder].reverse()))).toEqual(['a', 'b', 'c']);
  });
});
