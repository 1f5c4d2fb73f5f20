import { describe, expect, it } from 'vitest';
import { SleepSchedule, type SleepReason, type WeeklyRanges } from './sleep-schedule.std.ts';

const GRACE_MS = 60_000;
/** Local wall-clock times in the week of Sunday 22 November 2026 (Tuesday is the 24th). */
const at = (day: number, hours: number, minutes = 0, seconds = 0) => new Date(2026, 10, day, hours, minutes, seconds).getTime();
const TUESDAY = 24;

/** A schedule on a clock and an idle signal the test moves, recording every change; it first looks at `start`. */
function schedule(quietHours: WeeklyRanges, start: number) {
  const state = { now: start, idle: true, quietHours };
  const changes: Array<[boolean, SleepReason]> = [];
  const sleep = new SleepSchedule({
    now: () => state.now,
    isIdle: () => state.idle,
    quietHours: () => state.quietHours,
    graceMs: () => GRACE_MS,
    onChange: (asleep, reason) => changes.push([asleep, reason]),
  });
  /** Moves the clock to `time` and looks at it, as the service's timer does. */
  const update = (time: number) => {
    state.now = time;
    sleep.update();
    return sleep.asleep;
  };
  update(start);
  return { sleep, state, changes, update };
}

describe('quiet hours: when the kiosk sleeps', () => {
  it('sleeps once the kiosk has been idle for the grace time inside the day\'s range, and wakes by itself at its end', async () => {
    const { changes, update } = schedule({ tuesday: '22:00-23:30' }, at(TUESDAY, 21, 59, 30));
    expect(update(at(TUESDAY, 21, 59, 59))).toBe(false);
    expect(update(at(TUESDAY, 22, 0))).toBe(false); // quiet, but idle for 30 s only
    expect(update(at(TUESDAY, 22, 0, 29))).toBe(false);
    expect(update(at(TUESDAY, 22, 0, 30))).toBe(true);
    expect(update(at(TUESDAY, 23, 29, 59))).toBe(true);
    expect(update(at(TUESDAY, 23, 30))).toBe(false);
    expect(changes).toEqual([
      [true, 'quiet hours'],
      [false, 'quiet hours ended'],
    ]);
  });

  it('follows each weekday\'s own range (null: no quiet hours that day)', async () => {
    const { update } = schedule({ monday: '09:00-10:00', tuesday: null, wednesday: '12:00-13:00' }, at(TUESDAY - 1, 8, 59));
    expect(update(at(TUESDAY - 1, 9, 0))).toBe(true); // Monday, idle since 8:59
    expect(update(at(TUESDAY, 9, 30))).toBe(false); // Tuesday has none
    expect(update(at(TUESDAY, 12, 30))).toBe(false);
    expect(update(at(TUESDAY + 1, 9, 30))).toBe(false); // Wednesday's range is later
    expect(update(at(TUESDAY + 1, 12, 30))).toBe(true);
  });

  it('keeps a range past midnight for the day it starts: Tuesday night runs into Wednesday morning, whatever Wednesday says', async () => {
    const { update } = schedule({ tuesday: '22:00-06:00', wednesday: null }, at(TUESDAY, 21, 0));
    expect(update(at(TUESDAY, 22, 0))).toBe(true);
    expect(update(at(TUESDAY, 23, 0))).toBe(true);
    expect(update(at(TUESDAY + 1, 0, 0))).toBe(true);
    expect(update(at(TUESDAY + 1, 5, 59))).toBe(true);
    expect(update(at(TUESDAY + 1, 6, 0))).toBe(false);
    // Monday had no range: Tuesday's early morning is not quiet.
    const monday = schedule({ tuesday: '22:00-06:00' }, at(TUESDAY, 0, 0));
    expect(monday.update(at(TUESDAY, 3, 0))).toBe(false);
  });

  it('waits for the idle reset: a shopper\'s visit in quiet hours is never cut short, and the grace time starts when it ends', async () => {
    const { state, update } = schedule({ tuesday: '20:00-23:00' }, at(TUESDAY, 20, 0));
    state.idle = false;
    expect(update(at(TUESDAY, 20, 0, 1))).toBe(false);
    expect(update(at(TUESDAY, 20, 30))).toBe(false);
    state.idle = true; // back on the attract screen, no lock held
    expect(update(at(TUESDAY, 20, 31))).toBe(false);
    expect(update(at(TUESDAY, 20, 31) + GRACE_MS - 1)).toBe(false);
    expect(update(at(TUESDAY, 20, 31) + GRACE_MS)).toBe(true);
  });

  it('wakes when a screen is in use after all (another screen, a lock taken)', async () => {
    const { state, changes, update } = schedule({ tuesday: '20:00-23:00' }, at(TUESDAY, 20, 0));
    expect(update(at(TUESDAY, 20, 5))).toBe(true);
    state.idle = false;
    expect(update(at(TUESDAY, 20, 6))).toBe(false);
    expect(changes.at(-1)).toEqual([false, 'in use']);
  });
});

describe('quiet hours: waking', () => {
  it('a wake keeps the kiosk awake while it is used, and it sleeps again once idle for the grace time', async () => {
    const { sleep, state, changes, update } = schedule({ tuesday: '20:00-23:00' }, at(TUESDAY, 20, 0));
    expect(update(at(TUESDAY, 20, 5))).toBe(true);
    state.now = at(TUESDAY, 20, 10);
    sleep.wake();
    expect(sleep.asleep).toBe(false);
    expect(changes.at(-1)).toEqual([false, 'woken']);
    // Idle all along, yet the grace time starts again at the wake: no black screen straight back.
    expect(update(at(TUESDAY, 20, 10) + GRACE_MS - 1)).toBe(false);
    // The shopper uses the kiosk, then leaves.
    state.idle = false;
    expect(update(at(TUESDAY, 20, 12))).toBe(false);
    state.idle = true;
    expect(update(at(TUESDAY, 20, 15))).toBe(false);
    expect(update(at(TUESDAY, 20, 15) + GRACE_MS)).toBe(true);
    expect(changes.map(([asleep]) => asleep)).toEqual([true, false, true]);
  });

  it('a wake of a kiosk that is awake changes nothing', async () => {
    const { sleep, changes } = schedule({ tuesday: '20:00-23:00' }, at(TUESDAY, 12, 0));
    sleep.wake();
    expect(changes).toEqual([]);
  });

  it('removing the quiet hours wakes the sleeping kiosk at the next look', async () => {
    const { state, changes, update } = schedule({ tuesday: '20:00-23:00' }, at(TUESDAY, 20, 0));
    expect(update(at(TUESDAY, 20, 5))).toBe(true);
    state.quietHours = { tuesday: null };
    expect(update(at(TUESDAY, 20, 5, 1))).toBe(false);
    expect(changes.at(-1)).toEqual([false, 'quiet hours ended']);
  });
});
