/** Timing loops shared by the bench parts; warm-up results are dropped, never summarized. */

export interface Counts {
  warmup: number;
  iterations: number;
}

export const DEFAULT_COUNTS: Counts = { warmup: 20, iterations: 200 };

/** Runs `step` warmup + iterations times, one after another, and keeps the last `iterations` results. */
export async function sample<T>({ warmup, iterations }: Counts, step: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let index = 0; index < warmup + iterations; index++) results.push(await step(index));
  return results.slice(warmup);
}

/** How long `task` took in ms, and what it gave. */
export async function timed<T>(task: () => Promise<T>): Promise<[ms: number, value: T]> {
  const started = performance.now();
  const value = await task();
  return [performance.now() - started, value];
}
