import { describe, expect, it } from 'vitest';
import { contrastWithWhite, minutesSeconds, visibleControls } from './console-display.std.ts';

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

  it('measures white text on the brand colour as WCAG does', () => {
    expect(contrastWithWhite('#ffffff')).toBeCloseTo(1);
    expect(contrastWithWhite('#000000')).toBeCloseTo(21);
    // The default brand colour passes AA; a light yellow does not.
    expect(contrastWithWhite('#1f5fbf')).toBeGreaterThan(4.5);
    expect(contrastWithWhite('#f5c400')).toBeLessThan(4.5);
  });
});
