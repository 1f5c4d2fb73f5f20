import { beforeAll, describe, expect, it } from 'vitest';
import { formatLocal, localInputToUtc, localZoneName, utcToLocalInput } from './local-time.std.ts';

// A zone with daylight saving, so both offsets and both changes are covered (Node reads TZ anew).
beforeAll(() => {
  process.env.TZ = 'Europe/Amsterdam';
  expect(new Date(2030, 0, 1).getTimezoneOffset()).toBe(-60);
});

describe('localInputToUtc', () => {
  it('sends winter and summer times in UTC with whole seconds', () => {
    expect(localInputToUtc('2030-01-15T09:30')).toBe('2030-01-15T08:30:00Z');
    expect(localInputToUtc('2030-07-15T09:30')).toBe('2030-07-15T07:30:00Z');
    expect(localInputToUtc('2030-07-15T09:30:45')).toBe('2030-07-15T07:30:45Z');
    expect(localInputToUtc('2030-07-15T09:30:45.250')).toBe('2030-07-15T07:30:45Z');
  });

  it('crosses midnight and the year boundary', () => {
    expect(localInputToUtc('2031-01-01T00:15')).toBe('2030-12-31T23:15:00Z');
  });

  it('reads a time the spring change skips as past the gap, a doubled one as its first occurrence', () => {
    expect(localInputToUtc('2030-03-31T02:30')).toBe('2030-03-31T01:30:00Z');
    expect(localInputToUtc('2030-10-27T02:30')).toBe('2030-10-27T00:30:00Z');
  });

  it('refuses what is not a real date and time', () => {
    for (const value of ['', '2030-02-30T10:00', '2030-13-01T10:00', '2030-01-01T24:00', '2030-01-01', '2030-01-01T10:00Z', 'soon']) {
      expect(localInputToUtc(value), value).toBeNull();
    }
  });
});

describe('utcToLocalInput', () => {
  it('shows a platform timestamp in local time, as a datetime-local value', () => {
    expect(utcToLocalInput('2030-01-15T08:30:00+00:00')).toBe('2030-01-15T09:30');
    expect(utcToLocalInput('2030-07-15T07:30:45Z')).toBe('2030-07-15T09:30:45');
    expect(utcToLocalInput('not a date')).toBe('');
  });

  it('round-trips with localInputToUtc', () => {
    for (const value of ['2030-01-15T09:30', '2030-07-15T23:59', '2030-10-27T01:59', '2030-03-31T03:00', '2099-12-31T23:59:59']) {
      expect(utcToLocalInput(localInputToUtc(value)!)).toBe(value);
    }
  });
});

describe('formatLocal', () => {
  it('reads in local time and the given language', () => {
    expect(formatLocal('2030-07-15T07:30:00+00:00', 'en')).toMatch(/Jul 15, 2030.*9:30/);
    expect(formatLocal('2030-07-15T07:30:00+00:00', 'nl')).toMatch(/15 jul 2030.*09:30/);
    expect(formatLocal('2030-07-15T07:30:00+00:00', 'nl', 'short')).toMatch(/^15-07-2030,? 09:30$/);
    expect(formatLocal('garbage', 'en')).toBe('garbage');
  });

  it('names the zone it shows', () => {
    expect(localZoneName()).toBe('Europe/Amsterdam');
  });
});
