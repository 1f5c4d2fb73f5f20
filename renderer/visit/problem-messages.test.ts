import { describe, expect, it } from 'vitest';
import { problemForError, problemForStatus } from './problem-messages.std.ts';

describe('problemForError', () => {
  it('names each voucher refusal by its platform code', () => {
    expect(problemForError({ code: 'conflict', message: 'x', platformCode: 80005 })).toBe('problem.voucher.redeemed');
    expect(problemForError({ code: 'conflict', message: 'x', platformCode: 80006 })).toBe('problem.voucher.expired');
    expect(problemForError({ code: 'conflict', message: 'x', platformCode: 80012 })).toBe('problem.voucher.deactivated');
    expect(problemForError({ code: 'conflict', message: 'x', platformCode: 80014 })).toBe('problem.voucher.not_active_yet');
    expect(problemForError({ code: 'conflict', message: 'x', platformCode: 80017 })).toBe('problem.voucher.in_use');
    expect(problemForError({ code: 'conflict', message: 'x', platformCode: 80019 })).toBe('problem.voucher.none_left');
  });
  it('turns outages into a connection message and anything else into a generic one', () => {
    expect(problemForError({ code: 'timeout', message: 'x' })).toBe('problem.connection');
    expect(problemForError({ code: 'maintenance', message: 'x', platformCode: 503 })).toBe('problem.connection');
    expect(problemForError({ code: 'internal', message: 'x' })).toBe('problem.generic');
    // A platform asking to slow down is busy, not down.
    expect(problemForError({ code: 'rate_limited', message: 'x', platformCode: 429 })).toBe('problem.busy');
    expect(problemForError({ code: 'too_many_attempts', message: 'x' })).toBe('problem.code.paused');
    expect(problemForError({ code: 'conflict', message: 'x', platformCode: 99999 })).toBe('problem.generic');
  });
});

describe('problemForStatus', () => {
  it('lets only ACTIVE vouchers through', () => {
    expect(problemForStatus('ACTIVE')).toBeNull();
    expect(problemForStatus('LOCKED')).toBe('problem.voucher.in_use');
    expect(problemForStatus('INACTIVE')).toBe('problem.voucher.not_active_yet');
  });
});
