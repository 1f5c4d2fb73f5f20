import { describe, expect, it } from 'vitest';
import { formatTimestamp, parseTimestamp } from './timestamps.std.ts';

const utc = (text: string) => {
  const epochMs = parseTimestamp(text);
  return epochMs === null ? null : formatTimestamp(epochMs);
};

describe('timestamps', () => {
  it('reads any offset, Z, or none (UTC), and writes UTC with +00:00 and whole seconds', () => {
    expect(utc('2030-05-01T12:00:00+02:00')).toBe('2030-05-01T10:00:00+00:00');
    expect(utc('2030-05-01T12:00:00-05:30')).toBe('2030-05-01T17:30:00+00:00');
    expect(utc('2030-05-01T12:00:00Z')).toBe('2030-05-01T12:00:00+00:00');
    expect(utc('2030-05-01T12:00:00.987')).toBe('2030-05-01T12:00:00+00:00');
    expect(utc('2030-05-01T23:30')).toBe('2030-05-01T23:30:00+00:00');
  });

  it('refuses dates that do not exist instead of rolling them over', () => {
    expect(utc('2028-02-29T00:00:00Z')).toBe('2028-02-29T00:00:00+00:00');
    for (const text of [
      '2030-02-29T00:00:00Z',
      '2030-04-31T00:00:00Z',
      '2030-13-01T00:00:00Z',
      '2030-01-01T24:00:00',
      '2030-05-01',
      'tomorrow',
      '1969-12-31T23:59:59Z',
    ]) {
      expect(parseTimestamp(text), text).toBeNull();
    }
  });
});
