import { expect, it } from 'vitest';
import { reconnectDelayMs } from './reconnect-delay.std.ts';

it('doubles from 250 ms up to a 5 s cap', () => {
  expect([0, 1, 2, 3, 4, 5, 20].map(reconnectDelayMs)).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000]);
});
