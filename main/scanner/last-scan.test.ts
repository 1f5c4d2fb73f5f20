import { describe, expect, it } from 'vitest';
import { LastScan } from './last-scan.std.ts';

describe('LastScan (#23)', () => {
  it('is the newest of the serial scanner’s own scans and those the renderer reported, from any scanner', () => {
    const clock = { now: 1_000 };
    const serial = { at: undefined as number | undefined };
    const last = new LastScan(() => serial.at, () => clock.now);
    expect(last.latest()).toBeNull();
    last.report('keyboard');
    expect(last.latest()).toEqual({ at: 1_000, source: 'keyboard' });
    serial.at = 2_000;
    expect(last.latest()).toEqual({ at: 2_000, source: 'serial' });
    clock.now = 3_000;
    last.report('camera');
    expect(last.latest()).toEqual({ at: 3_000, source: 'camera' });
  });
});
