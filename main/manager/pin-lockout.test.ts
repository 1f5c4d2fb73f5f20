import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger.std.ts';
import { MAX_PIN_FAILURES, PinLockout } from './pin-lockout.node.ts';

const MINUTE = 60_000;

/** A lockout on a real data folder, read afresh as after a restart, on a clock the test moves. */
function lockoutOn(dataDir: string, clock: { now: number }) {
  return new PinLockout(dataDir, silentLogger, () => clock.now);
}

async function failFiveTimes(lockout: PinLockout) {
  for (let attempt = 0; attempt < MAX_PIN_FAILURES; attempt += 1) await lockout.recordFailure();
}

describe('PIN lockout', () => {
  it('escalates 5 min, 15 min, 1 h, then 4 h, also across restarts', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-lockout-'));
    const clock = { now: Date.UTC(2026, 10, 24, 9) };
    const durations: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      // A restart between every round: only the file remembers.
      const lockout = lockoutOn(dataDir, clock);
      await failFiveTimes(lockout);
      const until = lockoutOn(dataDir, clock).lockedUntil();
      expect(until).not.toBeNull();
      durations.push((until! - clock.now) / MINUTE);
      clock.now = until! - 1;
      expect(lockoutOn(dataDir, clock).lockedUntil()).toBe(until);
      clock.now = until!;
      expect(lockoutOn(dataDir, clock).lockedUntil()).toBeNull();
    }
    expect(durations).toEqual([5, 15, 60, 240, 240]);
  });

  it('starts over at 5 min after a right PIN', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-lockout-'));
    const clock = { now: Date.UTC(2026, 10, 24, 9) };
    for (let round = 0; round < 2; round += 1) {
      await failFiveTimes(lockoutOn(dataDir, clock));
      clock.now = lockoutOn(dataDir, clock).lockedUntil()!;
    }
    await lockoutOn(dataDir, clock).recordSuccess();
    const lockout = lockoutOn(dataDir, clock);
    expect(lockout.attemptsLeft()).toBe(MAX_PIN_FAILURES);
    await failFiveTimes(lockout);
    expect(lockoutOn(dataDir, clock).lockedUntil()).toBe(clock.now + 5 * MINUTE);
  });

  it('reads a lockout file written before escalation existed', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-lockout-'));
    const clock = { now: Date.UTC(2026, 10, 24, 9) };
    fs.writeFileSync(path.join(dataDir, 'manager-lockout.json'), JSON.stringify({ failures: 4, lockedUntil: null }));
    const lockout = lockoutOn(dataDir, clock);
    expect(lockout.attemptsLeft()).toBe(1);
    await lockout.recordFailure();
    expect(lockoutOn(dataDir, clock).lockedUntil()).toBe(clock.now + 5 * MINUTE);
  });

  it('locks the pad for a file larger than a lockout, or a link in its place, as for a damaged one (#28 §12)', () => {
    const clock = { now: Date.UTC(2026, 10, 24, 9) };
    const clean = JSON.stringify({ failures: 0, lockedUntil: null, lockouts: 0 });
    const padded = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-lockout-'));
    fs.writeFileSync(path.join(padded, 'manager-lockout.json'), clean + ' '.repeat(8 * 1024));
    const linked = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-lockout-'));
    fs.writeFileSync(path.join(linked, 'clean.json'), clean);
    fs.symlinkSync(path.join(linked, 'clean.json'), path.join(linked, 'manager-lockout.json'));
    for (const dataDir of [padded, linked]) expect(lockoutOn(dataDir, clock).lockedUntil()).toBe(clock.now + 5 * MINUTE);
  });
});
