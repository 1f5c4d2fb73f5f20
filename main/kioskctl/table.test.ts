import { describe, expect, it } from 'vitest';
import { printable, printableJson } from '../../base/csv.std.ts';
import { cut, formatTable } from './table.std.ts';

describe('kioskctl tables', () => {
  it('show control characters as escapes, so nothing printed from a feed or a file drives the terminal', () => {
    expect(printable('9.9.9\u001b[2J\u0007\u009b\u202e')).toBe('9.9.9\\x1b[2J\\x07\\x9b\\u202e');
    const table = formatTable([['available', 'v\u001b]0;title\u0007'], ['feed file', 'line\nbreak']]);
    expect(table).toBe('available  v\\x1b]0;title\\x07\nfeed file  line\\x0abreak\n');
  });

  it('show the bidi marks too (LRM, RLM, the Arabic letter mark), so no text is shown reordered (#28 §6)', () => {
    expect(printable('a\u200eb\u200fc\u061cd\u2066e\u2069')).toBe('a\\u200eb\\u200fc\\u061cd\\u2066e\\u2069');
  });

  it('cut a text to its most characters with an ellipsis, never through a surrogate pair (#28 §7)', () => {
    expect(cut('1.4.0', 5)).toBe('1.4.0');
    expect(cut('1.4.0-beta', 5)).toBe('1.4.…');
    expect(cut('abc🎉def', 5)).toBe('abc…');
    expect(cut('ab🎉def', 5)).toBe('ab🎉…');
  });

  it('leave printable text, accents and emoji alone', () => {
    expect(printable('Café 9.1.0-beta.1 ✓ 🎉')).toBe('Café 9.1.0-beta.1 ✓ 🎉');
  });

  it('writes JSON whose strings and keys, however deep, are printable: a kiosk\'s result cannot drive the terminal (#35 §2)', () => {
    const json = printableJson({ result: { 'api\u001b[2J': ['ok\u202e'], nested: { deep: '\u009b' } } }, 2);
    expect(json).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(JSON.parse(json)).toEqual({ result: { 'api\\x1b[2J': ['ok\\u202e'], nested: { deep: '\\x9b' } } });
  });
});
