import { minutesOf } from '../../common/local-time.std.ts';

/**
 * Which business day an instant belongs to: the local date on which the day last started at
 * `startsAt` (a store open past midnight counts 01:30 to the day before, with `04:00`). The start
 * of a day is the first instant the kiosk's clock shows `startsAt` or later on that date, so a
 * 23- or 25-hour day (daylight saving) is one business day, a start inside a repeated hour counts
 * from its first pass, and a start inside a skipped hour falls on the jump.
 */
export interface BusinessDayRule {
  /** `HH:MM`, local. */
  startsAt: string;
  /** IANA zone; the machine's own when left out. */
  timeZone?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;

/** `YYYY-MM-DD` of the business day `instant` (epoch ms) belongs to. */
export function businessDayOf(instant: number, { startsAt, timeZone }: BusinessDayRule): string {
  const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const { date } = wallClock(instant, zone);
  return instant >= cachedDayStart(date, minutesOf(startsAt), zone) ? date : shiftDate(date, -1);
}

// A kiosk asks about the same few days over and over: each day's start is worked out once.
const dayStarts = new Map<string, number>();

function cachedDayStart(date: string, minutes: number, timeZone: string): number {
  const key = `${timeZone} ${date} ${minutes}`;
  let start = dayStarts.get(key);
  if (start === undefined) {
    if (dayStarts.size >= 1_000) dayStarts.clear();
    start = dayStart(date, minutes, timeZone);
    dayStarts.set(key, start);
  }
  return start;
}

/** `instant` as the kiosk's clock showed it, with its offset: `2026-11-28T05:23:05+01:00`. */
export function localTimeOf(instant: number, timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone): string {
  const offsetMinutes = Math.round(offsetAt(instant, timeZone) / MINUTE_MS);
  const shown = new Date(Math.floor(instant / 1000) * 1000 + offsetMinutes * MINUTE_MS).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const hours = String(Math.floor(Math.abs(offsetMinutes) / 60)).padStart(2, '0');
  const minutes = String(Math.abs(offsetMinutes) % 60).padStart(2, '0');
  return `${shown}${sign}${hours}:${minutes}`;
}

interface WallClock {
  date: string;
  minutes: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The date and minute of day a clock in `timeZone` shows at `instant`. */
function wallClock(instant: number, timeZone: string): WallClock {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
    formats.set(timeZone, format);
  }
  const part = Object.fromEntries(format.formatToParts(instant).map(({ type, value }) => [type, value]));
  return { date: `${part.year}-${part.month}-${part.day}`, minutes: Number(part.hour) * 60 + Number(part.minute) };
}

/** The zone's offset from UTC at `instant`, in whole minutes' ms (what its clock shows, less the instant). */
function offsetAt(instant: number, timeZone: string): number {
  const { date, minutes } = wallClock(instant, timeZone);
  return Date.parse(`${date}T00:00:00Z`) + minutes * MINUTE_MS - Math.floor(instant / MINUTE_MS) * MINUTE_MS;
}

/**
 * The first instant whose wall clock shows `date` at `minutes` or later. Within a day of it the
 * zone has at most two offsets (changes are weeks apart): the reading is the instant less one of
 * them, the earlier when both fit (a repeated hour). In a skipped hour neither fits: the day
 * starts at the jump, found by halving the span between the two.
 */
function dayStart(date: string, minutes: number, timeZone: string): number {
  // That reading taken as UTC: every zone's offset is within ±14 hours of it.
  const asUtc = Date.parse(`${date}T00:00:00Z`) + minutes * MINUTE_MS;
  const offsets = new Set([offsetAt(asUtc - DAY_MS, timeZone), offsetAt(asUtc + DAY_MS, timeZone)]);
  const candidates = [...offsets].map((offset) => asUtc - offset).sort((a, b) => a - b);
  const fitting = candidates.filter((instant) => offsetAt(instant, timeZone) === asUtc - instant);
  if (fitting.length > 0) return fitting[0]!;
  let [before, after] = [candidates[0]!, candidates.at(-1)!];
  while (after - before > MINUTE_MS) {
    const middle = before + Math.floor((after - before) / 2 / MINUTE_MS) * MINUTE_MS;
    const clock = wallClock(middle, timeZone);
    if (clock.date > date || (clock.date === date && clock.minutes >= minutes)) after = middle;
    else before = middle;
  }
  return after;
}

/** `date` moved by `days` calendar days. */
export function shiftDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
