import { describe, expect, it } from 'vitest';
import { panelScale } from './panel-scale.std.ts';

describe('panelScale', () => {
  it('shows the screens as drawn on a 1080 px panel, either way round, and on bigger ones', () => {
    expect(panelScale(1080, 1920)).toBe(1);
    expect(panelScale(1920, 1080)).toBe(1);
    expect(panelScale(2160, 3840)).toBe(1);
  });

  it('shrinks them in proportion to the short side of a smaller panel', () => {
    expect(panelScale(1366, 768)).toBeCloseTo(768 / 1080);
    expect(panelScale(800, 1280)).toBeCloseTo(800 / 1080);
  });

  it('leaves a window with no size yet (minimised, not laid out) as drawn', () => {
    expect(panelScale(0, 0)).toBe(1);
    expect(panelScale(Number.NaN, 800)).toBe(1);
  });
});
