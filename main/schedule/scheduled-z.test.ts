import { describe, expect, it } from 'vitest';
import { ScheduledZ } from './scheduled-z.std.ts';

/** Local wall-clock times in late November 2026. */
const at = (day: number, hours: number, minutes = 0) => new Date(2026, 10, day, hours, minutes).getTime();

/** A daily Z at `time` over a shift opened at `openedAt`, on a clock and idle signal the test moves; each Z opens the next shift. */
function dailyZ(time: string | null, openedAt: number) {
  const state = { now: openedAt, idle: true, openedAt: openedAt as number | null, zs: [] as number[], waits: 0 };
  const z = new ScheduledZ({
    now: () => state.now,
    time: () => time,
    shiftOpenedAt: () => state.openedAt,
    isIdle: () => state.idle,
    closeShift: () => {
      state.zs.push(state.now);
      state.openedAt = state.now;
    },
    onWaiting: () => state.waits++,
  });
  const update = (now: number) => {
    state.now = now;
    z.update();
    return state.zs.length;
  };
  return { state, update };
}

describe('the daily Z', () => {
  it('closes the shift at the Z time, once a day', () => {
    const { state, update } = dailyZ('04:00', at(23, 9));
    expect(update(at(24, 3, 59))).toBe(0);
    expect(update(at(24, 4, 0))).toBe(1);
    expect(update(at(24, 4, 1))).toBe(1);
    expect(update(at(25, 3, 59))).toBe(1);
    expect(update(at(25, 4, 0))).toBe(2);
    expect(state.zs).toEqual([at(24, 4), at(25, 4)]);
  });

  it('waits for an idle kiosk with no lock held, saying so once, and closes at the first idle moment', () => {
    const { state, update } = dailyZ('04:00', at(23, 9));
    state.idle = false;
    expect(update(at(24, 4, 0))).toBe(0);
    expect(update(at(24, 4, 5))).toBe(0);
    expect(state.waits).toBe(1);
    state.idle = true;
    expect(update(at(24, 4, 6))).toBe(1);
  });

  it('closes a shift the kiosk was off for at its Z time when it is next idle, and none a manager closed after it', () => {
    // Off over night: started at 09:00 the next day, the shift from the day before still open.
    const { state, update } = dailyZ('04:00', at(23, 9));
    expect(update(at(24, 9, 0))).toBe(1);
    // A Z by hand at 22:00: the next one is tomorrow's.
    state.openedAt = at(24, 22);
    expect(update(at(24, 23, 0))).toBe(1);
    expect(update(at(25, 4, 0))).toBe(2);
  });

  it('does nothing without a Z time or a shift', () => {
    expect(dailyZ(null, at(23, 9)).update(at(25, 4))).toBe(0);
    const noShift = dailyZ('04:00', at(23, 9));
    noShift.state.openedAt = null;
    expect(noShift.update(at(25, 4))).toBe(0);
  });
});
