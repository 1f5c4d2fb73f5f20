import { describe, expect, it } from 'vitest';
import { Redactor } from './redact.std.ts';

describe('redaction of free text', () => {
  const redactor = new Redactor();

  it('masks code-like tokens: letters and digits mixed, or long digit runs', () => {
    expect(redactor.text('scanned KF9R4TBZ, KFR2D8WM and 2710042000668')).toBe('scanned •••4TBZ, •••D8WM and •••0668');
    expect(redactor.value({ reason: 'voucher KOFFIE24 already redeemed' })).toEqual({ reason: 'voucher •••IE24 already redeemed' });
  });

  it('leaves ordinary log text readable', () => {
    for (const line of [
      'portal session 3f2b8c1e-9a4d-4e6f-8b1a-2c3d4e5f6a7b created',
      'voucher REDEEMED; lock RELEASED after ECONNREFUSED',
      'browser host listening on http://127.0.0.1:43817 (platform code 80005)',
      'settings changed: idle.timeoutSeconds 60 -> 120, scanner.serial.baudRate 115200',
      'at 2026-11-23T02:10:18.000Z the renderer was unresponsive',
    ]) {
      expect(redactor.text(line)).toBe(line);
    }
  });
});
