import { z } from 'zod';
import { readBoundedFile } from '../../base/bounded-file.node.ts';
import { writeFileDurably } from '../../base/durable-file.node.ts';
import { serialQueue } from '../../base/queue.std.ts';
import type { Logger } from '../logging/logger.std.ts';
import type { CountersSoFar, ServiceHealth } from './service-health.node.ts';

const StoredCounters = z.strictObject({
  since: z.number().int().nonnegative(),
  errors: z.record(z.string().max(200), z.number().int().min(1)),
  outOfServiceMs: z.number().nonnegative(),
});

/** Well above the most the counters can hold (50 error keys of 200 characters: some 11 kB). */
const MAX_FILE_BYTES = 64 * 1024;

/** How often the counters are written while the kiosk runs: a crash loses at most this much. */
const SAVE_EVERY_MS = 60_000;

/**
 * The fleet's counters (failed platform calls, time out of service) kept across restarts in
 * `file`, so a nightly restart does not zero what a dashboard alerts on. A file that cannot be
 * read (or is larger than the counters ever are) starts the counts afresh, and their `since` says so.
 */
export function loadHealthCounters(file: string, logger: Logger): CountersSoFar | undefined {
  try {
    const read = readBoundedFile(file, MAX_FILE_BYTES);
    if (read.kind === 'missing') return undefined;
    if (read.kind === 'refused') throw new Error(`the file is ${read.reason}`);
    return StoredCounters.parse(JSON.parse(read.text));
  } catch (error) {
    logger.warn('health counters unreadable; counting afresh', { error: String(error) });
    return undefined;
  }
}

/** Writes the counters now and then, and once more when stopped (the current outage included). */
export function keepHealthCounters(file: string, health: Pick<ServiceHealth, 'counters'>, logger: Logger): { stop(): Promise<void> } {
  const writes = serialQueue();
  const save = () =>
    writes
      .run(() => writeFileDurably(file, `${JSON.stringify(health.counters())}\n`))
      .catch((error: unknown) => logger.warn('health counters not written', { error: String(error) }));
  const timer = setInterval(() => void save(), SAVE_EVERY_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return save();
    },
  };
}
