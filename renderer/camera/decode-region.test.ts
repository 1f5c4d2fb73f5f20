import { describe, expect, it } from 'vitest';
import {
  AIMING_REGION_OUTPUT_WIDTH,
  FULL_FRAME_EVERY,
  aimingRegion,
  fullFrameRegion,
  regionForFrame,
} from './decode-region.std.ts';

describe('aimingRegion', () => {
  it('is the aiming frame and its margin, centred in the 4:3 picture the preview shows of a 720p frame', () => {
    // The preview shows 960x720 of 1280x720; 70% of 960 is 672, 4:3 makes it 504 high.
    expect(aimingRegion(1280, 720)).toEqual({ x: 304, y: 108, width: 672, height: 504, outputWidth: 480, outputHeight: 360 });
  });

  it('scales down to the width the codes need and keeps the aspect', () => {
    const region = aimingRegion(1920, 1080);
    expect(region).toMatchObject({ x: 456, y: 162, width: 1008, height: 756, outputWidth: AIMING_REGION_OUTPUT_WIDTH });
    expect(region.outputWidth / region.outputHeight).toBeCloseTo(4 / 3, 2);
  });

  it('never scales a small picture up', () => {
    expect(aimingRegion(640, 480)).toEqual({ x: 96, y: 72, width: 448, height: 336, outputWidth: 448, outputHeight: 336 });
  });

  it('fits a portrait camera, whose whole width the preview shows', () => {
    const region = aimingRegion(720, 1280);
    expect(region).toMatchObject({ x: 108, width: 504, height: 378 });
    expect(region.y + region.height / 2).toBe(640);
  });

  it('stays inside the frame', () => {
    for (const [width, height] of [[1280, 720], [640, 480], [720, 1280], [1920, 1080], [320, 240]] as const) {
      const { x, y, width: w, height: h } = aimingRegion(width, height);
      expect(x).toBeGreaterThanOrEqual(0);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(x + w).toBeLessThanOrEqual(width);
      expect(y + h).toBeLessThanOrEqual(height);
    }
  });
});

describe('regionForFrame', () => {
  it('decodes the aiming region first, and the whole frame at full size every Nth frame', () => {
    const regions = Array.from({ length: 2 * FULL_FRAME_EVERY }, (_, index) => regionForFrame(index, 1280, 720));
    const full = fullFrameRegion(1280, 720);
    expect(full).toEqual({ x: 0, y: 0, width: 1280, height: 720, outputWidth: 1280, outputHeight: 720 });
    expect(regions.map((region) => (region.width === full.width ? 'full' : 'aim'))).toEqual(
      [...Array.from({ length: FULL_FRAME_EVERY - 1 }, () => 'aim'), 'full', ...Array.from({ length: FULL_FRAME_EVERY - 1 }, () => 'aim'), 'full'],
    );
    expect(regions[0]).toEqual(aimingRegion(1280, 720));
  });
});
