import { describe, expect, it } from 'vitest';
import { reachBand } from './reach-band.std.ts';

describe('reachBand', () => {
  it('keeps an upright 32" panel from 900 mm to its lower part: 1220 mm is 388 mm below its top', () => {
    const band = reachBand({ screenBottomMm: 900, screenHeightMm: null }, true);
    expect(band.top).toBeCloseTo((1608 - 1220) / 708);
    expect(band.bottom).toBe(1);
  });

  it('leaves a wide panel mounted wholly within reach whole', () => {
    expect(reachBand({ screenBottomMm: 800, screenHeightMm: 398 }, false)).toEqual({ top: 0, bottom: 1 });
  });

  it('cuts off the part of a panel that starts below 380 mm', () => {
    const band = reachBand({ screenBottomMm: 200, screenHeightMm: 1000 }, true);
    expect(band.top).toBe(0);
    expect(band.bottom).toBeCloseTo((1200 - 380) / 1000);
  });

  it('gives a panel mounted out of reach the quarter nearest the band, never nothing', () => {
    expect(reachBand({ screenBottomMm: 1500, screenHeightMm: 400 }, false)).toEqual({ top: 0.75, bottom: 1 });
    expect(reachBand({ screenBottomMm: 0, screenHeightMm: 300 }, false)).toEqual({ top: 0, bottom: 0.25 });
  });
});
