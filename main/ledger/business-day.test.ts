import { describe, expect, it } from 'vitest';
import { businessDayOf, localTimeOf, shiftDate } from './business-day.std.ts';

const at = (iso: string) => Date.parse(iso);
const amsterdam = (startsAt: string) => ({ startsAt, timeZone: 'Europe/Amsterdam' });

describe('businessDayOf', () => {
  it('counts the hours before the day starts to the day before', () => {
    // 03:59 and 04:00 in Amsterdam (UTC+1 in winter).
    expect(businessDayOf(at('2026-01-15T02:59:00Z'), amsterdam('04:00'))).toBe('2026-01-14');
    expect(businessDayOf(at('2026-01-15T03:00:00Z'), amsterdam('04:00'))).toBe('2026-01-15');
    expect(businessDayOf(at('2026-01-15T22:59:00Z'), amsterdam('04:00'))).toBe('2026-01-15');
  });

  it('starts at midnight local time, not UTC', () => {
    expect(businessDayOf(at('2026-01-14T23:30:00Z'), amsterdam('00:00'))).toBe('2026-01-15');
    expect(businessDayOf(at('2026-01-15T23:30:00Z'), { startsAt: '00:00', timeZone: 'UTC' })).toBe('2026-01-15');
  });

  it('keeps a 23-hour day (clocks forward) one business day', () => {
    // 29 March 2026: 02:00 CET becomes 03:00 CEST. The day starting at 04:00 runs until 04:00 CEST the next day.
    expect(businessDayOf(at('2026-03-29T01:59:00Z'), amsterdam('04:00'))).toBe('2026-03-28'); // 03:59 CEST
    expect(businessDayOf(at('2026-03-29T02:00:00Z'), amsterdam('04:00'))).toBe('2026-03-29'); // 04:00 CEST
    expect(businessDayOf(at('2026-03-30T01:59:00Z'), amsterdam('04:00'))).toBe('2026-03-29');
  });

  it('keeps a 25-hour day (clocks back) one business day', () => {
    // 25 October 2026: 03:00 CEST becomes 02:00 CET.
    expect(businessDayOf(at('2026-10-25T01:59:00Z'), amsterdam('04:00'))).toBe('2026-10-24'); // 02:59 CET, the hour's second pass
    expect(businessDayOf(at('2026-10-25T02:59:00Z'), amsterdam('04:00'))).toBe('2026-10-24'); // 03:59 CET
    expect(businessDayOf(at('2026-10-25T03:00:00Z'), amsterdam('04:00'))).toBe('2026-10-25'); // 04:00 CET
  });

  it('starts a day inside a repeated hour at its first pass, and never goes back to the day before', () => {
    // 02:30 happens twice on 25 October 2026: first at 00:30Z (CEST), again at 01:30Z (CET).
    expect(businessDayOf(at('2026-10-25T00:29:00Z'), amsterdam('02:30'))).toBe('2026-10-24');
    expect(businessDayOf(at('2026-10-25T00:30:00Z'), amsterdam('02:30'))).toBe('2026-10-25');
    // 02:10 CET, the second pass, shows an earlier time than the start: still the new day.
    expect(businessDayOf(at('2026-10-25T01:10:00Z'), amsterdam('02:30'))).toBe('2026-10-25');
  });

  it('starts a day inside a skipped hour at the jump', () => {
    // 02:30 never shows on 29 March 2026: the day starts at 03:00 CEST (01:00Z).
    expect(businessDayOf(at('2026-03-29T00:59:00Z'), amsterdam('02:30'))).toBe('2026-03-28');
    expect(businessDayOf(at('2026-03-29T01:00:00Z'), amsterdam('02:30'))).toBe('2026-03-29');
  });

  it('never goes back a day, five minutes at a time around each clock change', () => {
    const changes = [
      ['Europe/Amsterdam', '2026-03-29T01:00:00Z'],
      ['Europe/Amsterdam', '2026-10-25T01:00:00Z'],
      ['America/New_York', '2026-03-08T07:00:00Z'],
      ['Australia/Lord_Howe', '2026-04-04T15:00:00Z'], // back by half an hour
    ] as const;
    for (const [timeZone, change] of changes) {
      for (const startsAt of ['00:00', '01:30', '02:30', '04:00']) {
        let last = '';
        for (let instant = at(change) - 6 * 3600_000; instant < at(change) + 6 * 3600_000; instant += 5 * 60_000) {
          const day = businessDayOf(instant, { startsAt, timeZone });
          expect(day >= last, `${timeZone} ${startsAt} at ${new Date(instant).toISOString()}: ${day} after ${last}`).toBe(true);
          last = day;
        }
      }
    }
  });
});

describe('localTimeOf', () => {
  it('shows the kiosk’s wall clock with its offset, summer and winter', () => {
    expect(localTimeOf(at('2026-01-15T02:59:30.500Z'), 'Europe/Amsterdam')).toBe('2026-01-15T03:59:30+01:00');
    expect(localTimeOf(at('2026-07-15T02:59:30Z'), 'Europe/Amsterdam')).toBe('2026-07-15T04:59:30+02:00');
    expect(localTimeOf(at('2026-07-15T02:59:30Z'), 'America/St_Johns')).toBe('2026-07-15T00:29:30-02:30');
  });
});

describe('shiftDate', () => {
  it('moves across month and year ends', () => {
    expect(shiftDate('2026-03-01', -1)).toBe('2026-02-28');
    expect(shiftDate('2026-12-31', 1)).toBe('2027-01-01');
  });
});
