import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordingLogger } from '../electron/fake-electron.test-support.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { LoyaltyError } from './errors.std.ts';
import { keepHealthCounters, loadHealthCounters } from './health-counters.node.ts';
import { ServiceHealth } from './service-health.node.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function countersFile() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'health-counters-'));
  dirs.push(dir);
  return path.join(dir, 'health-counters.json');
}

const healthFrom = (file: string, now: number) =>
  new ServiceHealth({ probe: async () => undefined, onChange: () => {}, logger: silentLogger, counters: loadHealthCounters(file, silentLogger), now: () => now });

describe('health counters across restarts (#23)', () => {
  it('go on in the next run from where the last one stopped, with the same since', async () => {
    const file = countersFile();
    const first = healthFrom(file, 1_000);
    await first.track(Promise.reject(new LoyaltyError({ kind: 'timeout', message: 'slow' }))).catch(() => undefined);
    await keepHealthCounters(file, first, silentLogger).stop();
    first.close();

    const second = healthFrom(file, 90_000);
    await second.track(Promise.reject(new LoyaltyError({ kind: 'timeout', message: 'slow' }))).catch(() => undefined);
    expect(second.counters()).toEqual({ since: 1_000, errors: { timeout: 2 }, outOfServiceMs: 0 });
    second.close();
  });

  it('start afresh from a damaged file, and say so with a new since', () => {
    const file = countersFile();
    fs.writeFileSync(file, '{"since": "yesterday"');
    expect(loadHealthCounters(file, silentLogger)).toBeUndefined();
    const health = healthFrom(file, 5_000);
    expect(health.counters()).toEqual({ since: 5_000, errors: {}, outOfServiceMs: 0 });
    health.close();
  });

  it('start afresh from a file larger than the counters ever are, valid as it may be (#28 §12)', () => {
    const file = countersFile();
    const errors = Object.fromEntries(Array.from({ length: 20_000 }, (_, index) => [`conflict:409:${index}`, 1]));
    fs.writeFileSync(file, JSON.stringify({ since: 1_000, errors, outOfServiceMs: 0 }));
    const logger = recordingLogger();
    expect(loadHealthCounters(file, logger)).toBeUndefined();
    expect(logger.lines).toContainEqual(expect.objectContaining({ level: 'warn', fields: { error: expect.stringMatching(/too large/) } }));
    const health = healthFrom(file, 5_000);
    expect(health.counters().since).toBe(5_000);
    health.close();
  });

  it('refuse a huge file by its size, never reading it whole: a sparse 2 GB file costs no memory (#28 §12)', () => {
    const file = countersFile();
    fs.writeFileSync(file, '');
    // Just under the most fs.readFileSync takes at once: read whole, it would be allocated.
    fs.truncateSync(file, 2 ** 31 - 1);
    const logger = recordingLogger();
    const before = process.memoryUsage().arrayBuffers;
    expect(loadHealthCounters(file, logger)).toBeUndefined();
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 ** 2);
    expect(logger.lines).toContainEqual(expect.objectContaining({ level: 'warn', fields: { error: expect.stringMatching(/too large/) } }));
  });
});
