import { describe, expect, it } from 'vitest';
import { MAX_RECONNECT_MS, reconnectWaitMs } from './reconnect-wait.std.ts';

describe('reconnect waits (#23)', () => {
  it('fall anywhere from nothing to a window that doubles with each failed try, up to a minute', () => {
    expect(reconnectWaitMs(0, 10_000, () => 0)).toBe(0);
    expect([0, 1, 2, 3].map((attempt) => reconnectWaitMs(attempt, 10_000, () => 0.999_999))).toEqual([9_999, 19_999, 39_999, 59_999]);
    expect(reconnectWaitMs(40, 10_000, () => 0.5)).toBe(MAX_RECONNECT_MS / 2);
  });

  it('spread a fleet that lost its broker at once over the first window: no second takes a fifth of it', () => {
    // A fixed sequence spread like Math.random: 200 kiosks, their first try after the restart.
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const perSecond = new Map<number, number>();
    for (let kiosk = 0; kiosk < 200; kiosk += 1) {
      const second = Math.floor(reconnectWaitMs(0, 10_000, random) / 1_000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(40);
  });
});
