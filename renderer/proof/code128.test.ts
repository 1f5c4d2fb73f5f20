import { describe, expect, it } from 'vitest';
import { barcodesIn } from '../../test/support/barcodes.node.ts';
import { code128Modules, code128Symbols } from './code128.std.ts';

/** The code painted as a screen shows it: black bars on white, 3 pixels a module, 10 modules of quiet zone each side. */
function painted(value: string) {
  const runs = [10, ...code128Modules(value), 10];
  const width = runs.reduce((sum, run) => sum + run, 0) * 3;
  const height = 60;
  const data = new Uint8ClampedArray(width * height * 4).fill(255);
  let x = 0;
  runs.forEach((run, index) => {
    // Quiet zone, then bar, space, bar…: the odd runs of this list are bars.
    if (index % 2 === 1) for (let column = x; column < x + run * 3; column++) for (let row = 0; row < height; row++) data.fill(0, (row * width + column) * 4, (row * width + column) * 4 + 3);
    x += run * 3;
  });
  return { data, width, height, colorSpace: 'srgb' as const };
}

const decoded = (value: string) => barcodesIn(painted(value));

describe('Code 128 for the proof on screen (#31 §2)', () => {
  it('puts an even count of digits in set C, two to a symbol, with the checksum of the standard', () => {
    // Start C (105) + 12·1 + 34·2 + 56·3 + 78·4 + 90·5 = 1115; 1115 mod 103 = 85.
    expect(code128Symbols('1234567890')).toEqual([105, 12, 34, 56, 78, 90, 85]);
    // Set B: start B (104) + 'A' (33)·1 + 'b' (66)·2 = 269; 269 mod 103 = 63.
    expect(code128Symbols('Ab')).toEqual([104, 33, 66, 63]);
  });

  it('is 11 modules a symbol and 13 for the stop, bar first and bar last, every run 1 to 4 wide', () => {
    const modules = code128Modules('1234567890');
    expect(modules.reduce((sum, run) => sum + run, 0)).toBe(7 * 11 + 13);
    expect(modules.length % 2).toBe(1);
    expect(modules.every((run) => run >= 1 && run <= 4)).toBe(true);
  });

  it('reads back as it was written: proof codes with leading zeros, odd digit counts, text with spaces', async () => {
    for (const value of ['0000005724', '9876543210', '12345', 'KOFFIE 24', 'a-b/c']) await expect(decoded(value), value).resolves.toEqual([value]);
  });

  it('refuses what it cannot encode: nothing, or a character outside set B', () => {
    expect(() => code128Symbols('')).toThrow(/nothing to encode/);
    expect(() => code128Symbols('café')).toThrow(/no "é"/);
    expect(() => code128Symbols('a\nb')).toThrow(/no "\\n"/);
  });
});
