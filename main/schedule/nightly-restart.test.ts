import { describe, expect, it } from 'vitest';
import { lastOccurrence } from './daily-when-idle.std.ts';
import { NightlyRestart } from './nightly-restart.std.ts';

/** Local wall-clock times in late November 2026 (Tuesday is the 24th). */
const at = (day: number, hours: number, minutes = 0, seconds = 0) => new Date(2026, 10, day, hours, minutes, seconds).getTime();

/** A nightly restart at `time` for a process started at `startedAt`, on a clock and idle signal the test moves. */
function nightly(time: string | null, startedAt: number) {
  const state = { now: startedAt, idle: true, restarts: [] as number[], waits: 0 };
  const restart = new NightlyRestart({
    now: () => state.now,
    startedAt,
    time: () => time,
    isIdle: () => state.idle,
    restart: () => state.restarts.push(state.now),
    onWaiting: () => state.waits++,
  });
  const update = (now: number) => {
    state.now = now;
    restart.update();
    return state.restarts.length;
  };
  return { state, update };
}

describe('nightly restart', () => {
  it('restarts at the configured local time when idle, once for that night, and again the next night', () => {
    const { state, update } = nightly('03:30', at(23, 12, 0));
    expect(update(at(24, 3, 29, 59))).toBe(0);
    expect(update(at(24, 3, 30))).toBe(1);
    // The host may take its time to go: further looks that night do nothing.
    expect(update(at(24, 3, 30, 5))).toBe(1);
    expect(update(at(24, 23, 59))).toBe(1);
    expect(update(at(25, 3, 29))).toBe(1);
    expect(update(at(25, 3, 30))).toBe(2);
    expect(state.restarts).toEqual([at(24, 3, 30), at(25, 3, 30)]);
  });

  it('waits for the kiosk to be idle (no visit, no lock), then restarts at the first idle moment, past midnight too', () => {
    const { state, update } = nightly('23:50', at(23, 12, 0));
    state.idle = false;
    expect(update(at(24, 23, 50))).toBe(0);
    expect(update(at(25, 0, 10))).toBe(0);
    expect(state.waits).toBe(1);
    state.idle = true;
    expect(update(at(25, 0, 11))).toBe(1);
    expect(update(at(25, 0, 12))).toBe(1);
  });

  it('does not loop: the kiosk that comes back from it within the same minute does not restart again that night', () => {
    const first = nightly('03:30', at(23, 12, 0));
    expect(first.update(at(24, 3, 30, 0))).toBe(1);
    const cameBack = nightly('03:30', at(24, 3, 30, 4));
    expect(cameBack.update(at(24, 3, 30, 5))).toBe(0);
    expect(cameBack.update(at(24, 3, 31))).toBe(0);
    expect(cameBack.update(at(25, 3, 30))).toBe(1);
  });

  it('a kiosk started later in the day does not restart for a time it never lived through', () => {
    const { update } = nightly('03:30', at(24, 9, 0));
    expect(update(at(24, 9, 0, 5))).toBe(0);
    expect(update(at(24, 22, 0))).toBe(0);
  });

  it('does nothing without a configured time', () => {
    const { update } = nightly(null, at(23, 12, 0));
    expect(update(at(24, 3, 30))).toBe(0);
  });

  it('lastOccurrence is today\'s time once it has come, else yesterday\'s', () => {
    expect(lastOccurrence('03:30', at(24, 3, 30))).toBe(at(24, 3, 30));
    expect(lastOccurrence('03:30', at(24, 3, 29))).toBe(at(23, 3, 30));
    expect(lastOccurrence('00:00', at(1, 0, 0))).toBe(at(1, 0, 0));
    expect(lastOccurrence('23:59', at(1, 0, 0))).toBe(new Date(2026, 9, 31, 23, 59).getTime());
  });
});
