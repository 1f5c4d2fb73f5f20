import { describe, expect, it } from 'vitest';
import { fitWithin, toBlackAndWhite } from './slip-logo.std.ts';

describe('a chosen image made the slip’s logo', () => {
  it('is scaled down to the paper, keeping its shape, and never enlarged', () => {
    expect(fitWithin(1152, 400, 576, 400)).toEqual({ width: 576, height: 200 });
    expect(fitWithin(300, 1200, 576, 400)).toEqual({ width: 100, height: 400 });
    expect(fitWithin(120, 40, 576, 400)).toEqual({ width: 120, height: 40 });
    expect(fitWithin(5000, 1, 384, 400)).toEqual({ width: 384, height: 1 });
  });

  it('is black where it is dark and white where it is light or clear', () => {
    const dots = new Uint8ClampedArray([
      ...[20, 20, 20, 255], // dark grey
      ...[200, 200, 200, 255], // light grey
      ...[0, 0, 255, 255], // pure blue is dark on paper
      ...[0, 0, 0, 0], // clear: the paper shows
      ...[0, 0, 0, 64], // faint black: mostly paper
    ]);
    toBlackAndWhite(dots);
    expect([...dots]).toEqual([...[0, 0, 0, 255], ...[255, 255, 255, 255], ...[0, 0, 0, 255], ...[255, 255, 255, 255], ...[255, 255, 255, 255]]);
  });
});
