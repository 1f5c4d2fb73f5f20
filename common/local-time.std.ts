import { z } from 'zod';

/**
 * Local wall-clock times and ranges for the kiosk's schedules (the update window, quiet hours,
 * the nightly restart). A range may run past midnight (`22:00-06:00`); its end is exclusive.
 */
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const RANGE = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/;

export const LocalTime = z.string().regex(TIME, 'a local time like 03:30');
export const LocalTimeRange = z
  .string()
  .regex(RANGE, 'a local time range like 03:00-05:00')
  .refine((range) => {
    const { start, end } = parseRange(range);
    return start !== end;
  }, 'the range must not start and end at the same time');

export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Minutes since local midnight. */
export function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

/** A range's ends in minutes since midnight; the schemas above guarantee `HH:MM-HH:MM`. */
function parseRange(range: string) {
  return { start: minutesOf(range.slice(0, 5)), end: minutesOf(range.slice(6, 11)) };
}

function minuteOfDay(date: Date): number {
  return date.getHours() * 60 + date.getMinutes();
}

/** Whether `date` (local time) falls inside `range`, a range past midnight included. */
export function isWithinRange(range: string, date: Date): boolean {
  const { start, end } = parseRange(range);
  const now = minuteOfDay(date);
  return start < end ? now >= start && now < end : now >= start || now < end;
}

/**
 * Whether `date` falls in a weekday's range. A range past midnight belongs to the day it starts:
 * Friday's `22:00-07:00` covers Saturday 06:59, whatever Saturday's own range says.
 */
export function isWithinWeeklyRanges(ranges: Partial<Record<Weekday, string | null>>, date: Date): boolean {
  const today = ranges[weekdayOf(date.getDay())];
  const yesterday = ranges[weekdayOf(date.getDay() + 6)];
  const now = minuteOfDay(date);
  if (today) {
    const { start, end } = parseRange(today);
    if (start < end ? now >= start && now < end : now >= start) return true;
  }
  if (yesterday) {
    const { start, end } = parseRange(yesterday);
    if (start > end && now < end) return true;
  }
  return false;
}

function weekdayOf(day: number): Weekday {
  return WEEKDAYS[day % 7] as Weekday;
}
