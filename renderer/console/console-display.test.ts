import { describe, expect, it } from 'vitest';
import { minutesSeconds, visibleControls } from './console-display.std.ts';

describe('console display helpers', () => {
  it('shows a wait as m:ss, rounded up', () => {
    expect(minutesSeconds(5 * 60_000)).toBe('5:00');
    expect(minutesSeconds(61_001)).toBe('1:02');
    expect(minutesSeconds(1)).toBe('0:01');
    expect(minutesSeconds(-5)).toBe('0:00');
  });

  it('makes control characters visible', () => {
    expect(visibleControls('2710042000132\r\n')).toBe('2710042000132[CR][LF]');
    expect(visibleControls('01095\u001d10ABC\tx\u007f')).toBe('01095[GS]10ABC[TAB]x[0x7f]');
    expect(visibleControls('KOFFIE24')).toBe('KOFFIE24');
  });
});
