import fs from 'node:fs';
import { z } from 'zod';
import { writeFileDurably } from '../../base/durable-file.node.ts';
import type { Logger } from '../logging/logger.std.ts';
import type { CountersSoFar, ServiceHealth } from './service-health.node.ts';

const StoredCounters = z.strictObject({
  since: z.number().int().nonnegative(),
  errors: z.record(z.string().max(200), z.number().int().min(1)),
  outOfServiceMs: z.number().nonnegative(),
});

/** How often the counters are written while the kiosk runs: a crash loses at most this much. */
const SAVE_EVERY_MS = 60_000;

/**
 * The fleet's counters (failed platform calls, time out of service) kept across restarts in
 * `file`, so a nightly restart does not zero what a dashboard alerts on. A file that cannot be
 * read starts the counts afresh, and their `since` says so.
 */
export function loadHealthCounters(file: string, logger: Logger): CountersSoFar | undefined {
  if (!fs.existsSync(file)) return undefined;
  try {
    return StoredCounters.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch (error) {
    logger.warn('health counters unreadable; counting afresh', { error: String(error) });
    return undefined;
  }
}

/** Writes the counters now and then, and once more when stopped (the current outage included). */
export function keepHealthCounters(file: string, health: Pick<ServiceHealth, 'counters'>, logger: Logger): { stop(): Promise<void> } {
  let writing: Promise<void> = Promise.resolve();
  const save = () => {
    writing = writing
      .then(() => writeFileDurably(file, `${JSON.stringify(health.counters())}\n`))
      .catch((error: unknown) => logger.warn('health counters not written', { error: String(error) }));
    return writing;
  };
  const timer = setInterval(save, SAVE_EVERY_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return save();
    },
  };
}
