/**
 * The platform writes timestamps as ISO 8601 in UTC with an explicit `+00:00` and whole seconds.
 * The sandbox stores epoch milliseconds floored to the second, so what it stores is what it shows.
 */
export function formatTimestamp(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 19)}+00:00`;
}

export function floorToSecond(epochMs: number): number {
  return Math.floor(epochMs / 1000) * 1000;
}

export const LATEST_TIMESTAMP = Date.UTC(9999, 11, 31, 23, 59, 59);

// What the API's IsoDateTime accepts: date, T, hours and minutes, optional seconds (and fraction),
// then Z, ±HH:MM or nothing.
const ISO_8601 = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?(?:Z|([+-])(\d\d):(\d\d))?$/;

/**
 * An ISO 8601 date-time with any offset; no offset means UTC. Null when the text is not a real
 * moment between 1970 and 9999 (so 2030-02-30 and 24:00 are refused, not rolled over).
 */
export function parseTimestamp(text: string): number | null {
  const match = ISO_8601.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = [1, 2, 3, 4, 5, 6, 8, 9].map(
    (group) => Number(match[group] ?? 0),
  ) as [number, number, number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 14 || offsetMinutes > 59) return null;
  const moment = new Date(0);
  moment.setUTCFullYear(year, month - 1, day);
  moment.setUTCHours(hour, minute, second, 0);
  const offsetMs = (match[7] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  const epochMs = moment.getTime() - offsetMs;
  return epochMs >= 0 && epochMs <= LATEST_TIMESTAMP ? epochMs : null;
}

function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one.
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(year, month, 0);
  return lastDay.getUTCDate();
}
