import { describe, expect, it } from 'vitest';
import { eventTimeline } from './event-timeline.std.ts';

const line = (time: string, fields: Record<string, unknown>) => JSON.stringify({ time, level: 'info', message: 'm', ...fields });

describe('eventTimeline (diagnostics a manager reads, #34 §2)', () => {
  it('keeps the events a shop floor cares about, with their time, oldest first', () => {
    const lines = [
      line('2026-11-29T07:00:00.000Z', { event: 'services.started', version: '1.0.0' }),
      line('2026-11-29T07:00:01.000Z', { event: 'portal.session_created' }),
      line('2026-11-29T07:05:00.000Z', { event: 'scanner.unavailable', reason: 'device not found' }),
      line('2026-11-29T07:06:00.000Z', { event: 'platform.unavailable' }),
      line('2026-11-29T07:07:00.000Z', { message: 'no event at all' }),
      line('2026-11-29T07:08:00.000Z', { event: 'platform.reachable' }),
      line('2026-11-29T07:09:00.000Z', { event: 'scanner.connected' }),
      line('2026-11-29T07:10:00.000Z', { event: 'voucher.redeem_unsettled' }),
    ];
    expect(eventTimeline(lines, 10)).toEqual([
      { at: Date.parse('2026-11-29T07:00:00.000Z'), kind: 'started' },
      { at: Date.parse('2026-11-29T07:05:00.000Z'), kind: 'scanner_lost' },
      { at: Date.parse('2026-11-29T07:06:00.000Z'), kind: 'out_of_service' },
      { at: Date.parse('2026-11-29T07:08:00.000Z'), kind: 'back_in_service' },
      { at: Date.parse('2026-11-29T07:09:00.000Z'), kind: 'scanner_back' },
      { at: Date.parse('2026-11-29T07:10:00.000Z'), kind: 'redemption_unsettled' },
    ]);
  });

  it('keeps only the newest, and passes over torn lines and lines without a time', () => {
    const lines = [
      line('2026-11-29T07:00:00.000Z', { event: 'services.started' }),
      '{"time":"2026-11-29T07:01:00.000Z","event":"services.sto',
      JSON.stringify({ event: 'services.stopped' }),
      line('not a time', { event: 'services.stopped' }),
      line('2026-11-29T07:02:00.000Z', { event: 'services.stopped' }),
      line('2026-11-29T07:03:00.000Z', { event: 'services.started' }),
    ];
    expect(eventTimeline(lines, 2).map((entry) => entry.kind)).toEqual(['stopped', 'started']);
  });
});
