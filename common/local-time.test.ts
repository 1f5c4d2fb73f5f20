import { describe, expect, it } from 'vitest';
import { isWithinRange, isWithinWeeklyRanges, LocalTime, LocalTimeRange } from './local-time.std.ts';

const at = (day: string, time: string) => new Date(`${day}T${time}:00`);

describe('local times and ranges', () => {
  it('accept HH:MM and HH:MM-HH:MM only', () => {
    expect(LocalTime.safeParse('03:30').success).toBe(true);
    expect(LocalTime.safeParse('24:00').success).toBe(false);
    expect(LocalTimeRange.safeParse('03:00-05:00').success).toBe(true);
    expect(LocalTimeRange.safeParse('22:00-06:00').success).toBe(true);
    expect(LocalTimeRange.safeParse('03:00-03:00').success).toBe(false);
    expect(LocalTimeRange.safeParse('3:00-5:00').success).toBe(false);
  });

  it('contain their start, not their end, and run past midnight', () => {
    expect(isWithinRange('03:00-05:00', at('2026-11-24', '03:00'))).toBe(true);
    expect(isWithinRange('03:00-05:00', at('2026-11-24', '05:00'))).toBe(false);
    expect(isWithinRange('22:00-06:00', at('2026-11-24', '23:59'))).toBe(true);
    expect(isWithinRange('22:00-06:00', at('2026-11-24', '05:59'))).toBe(true);
    expect(isWithinRange('22:00-06:00', at('2026-11-24', '12:00'))).toBe(false);
  });

  it('give a night past midnight to the weekday it starts on', () => {
    // 2026-11-27 is a Friday, 2026-11-28 a Saturday.
    const ranges = { friday: '22:00-07:00', saturday: null };
    expect(isWithinWeeklyRanges(ranges, at('2026-11-27', '21:59'))).toBe(false);
    expect(isWithinWeeklyRanges(ranges, at('2026-11-27', '22:00'))).toBe(true);
    expect(isWithinWeeklyRanges(ranges, at('2026-11-28', '06:59'))).toBe(true);
    expect(isWithinWeeklyRanges(ranges, at('2026-11-28', '07:00'))).toBe(false);
    expect(isWithinWeeklyRanges({ saturday: '00:00-08:00' }, at('2026-11-28', '07:30'))).toBe(true);
    expect(isWithinWeeklyRanges({}, at('2026-11-28', '07:30'))).toBe(false);
  });
});
