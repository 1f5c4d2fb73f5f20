/** Calls in a row: how many platform round trips a shopper waits through one after another (issue #32). */

/** A request as a proxy saw it: when it arrived and when its answer had been sent, in ms on one clock. */
export interface TimedCall {
  arrivedAt: number;
  answeredAt: number;
}

/**
 * The longest chain of calls in which each one arrived after the one before it was answered: the
 * critical path. Calls that overlap cannot follow each other in a chain, so calls side by side
 * count as one step. The chain is returned first call first; its length is the calls in a row.
 */
export function longestChain<T extends TimedCall>(calls: readonly T[]): T[] {
  // By arrival (then answer), so a call's possible predecessors all come before it.
  const sorted = [...calls].sort((a, b) => a.arrivedAt - b.arrivedAt || a.answeredAt - b.answeredAt);
  // length[i]: the longest chain ending with sorted[i]; previous[i]: the call before it there (-1: none).
  const length: number[] = [];
  const previous: number[] = [];
  sorted.forEach((call, index) => {
    length[index] = 1;
    previous[index] = -1;
    for (let before = 0; before < index; before++) {
      if (sorted[before]!.answeredAt <= call.arrivedAt && length[before]! + 1 > length[index]!) {
        length[index] = length[before]! + 1;
        previous[index] = before;
      }
    }
  });
  if (sorted.length === 0) return [];
  const chain: T[] = [];
  for (let at = length.indexOf(Math.max(...length)); at !== -1; at = previous[at]!) chain.unshift(sorted[at]!);
  return chain;
}
