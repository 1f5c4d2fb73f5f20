import { invalidField } from './errors.std.ts';
import type { SandboxState } from './state.std.ts';
import { floorToSecond, formatTimestamp, LATEST_TIMESTAMP } from './timestamps.std.ts';

/**
 * The sandbox clock: the wall clock plus an offset that only moves forward (POST
 * /_sandbox/clock) and is persisted, so tests can let locks lapse and vouchers expire.
 */
export function sandboxNow(state: SandboxState): number {
  return floorToSecond(Date.now() + state.clock_offset_ms);
}

export function advanceClock(state: SandboxState, now: number, seconds: number) {
  const advanced = now + seconds * 1000;
  if (advanced > LATEST_TIMESTAMP) {
    throw invalidField('advance_seconds', 'The advance_seconds field would move the clock past the year 9999.');
  }
  state.clock_offset_ms += seconds * 1000;
  return { now: formatTimestamp(advanced) };
}
