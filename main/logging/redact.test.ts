import { describe, expect, it } from 'vitest';
import { Redactor } from './redact.std.ts';

describe('redaction of free text', () => {
  const redactor = new Redactor();

  it('masks code-like tokens: letters and digits mixed, or long digit runs', () => {
    expect(redactor.text('scanned KF9R4TBZ, KFR2D8WM and 2710042000668')).toBe('scanned •••4TBZ, •••D8WM and •••0668');
    expect(redactor.value({ reason: 'voucher KOFFIE24 already redeemed' })).toEqual({ reason: 'voucher •••IE24 already redeemed' });
  });

  it('masks codes made only of capital letters', () => {
    expect(redactor.text('no voucher WELKOMXX for this shop')).toBe('no voucher •••OMXX for this shop');
    expect(redactor.text('scanned ZOMERKORTING.')).toBe('scanned •••TING.');
  });

  it('masks e-mail addresses written in any script', () => {
    expect(redactor.text('contact jürgen.müller@bücher.de not found')).toBe('contact j•••@bücher.de not found');
    expect(redactor.text('mail to ζωή@παράδειγμα.ελ')).toBe('mail to ζ•••@παράδειγμα.ελ');
    expect(redactor.text('plain jane.doe@example.com')).toBe('plain j•••@example.com');
  });

  it('leaves ordinary log text readable', () => {
    for (const line of [
      'portal session 3f2b8c1e-9a4d-4e6f-8b1a-2c3d4e5f6a7b created',
      'voucher REDEEMED; lock RELEASED after ECONNREFUSED',
      'voucher status ACTIVE, EXPIRED or DEACTIVATED; the request timed out with ETIMEDOUT',
      'DELETE answered UNAUTHORIZED; child ended with SIGTERM',
      'browser host listening on http://127.0.0.1:43817 (platform code 80005)',
      'settings changed: idle.timeoutSeconds 60 -> 120, scanner.serial.baudRate 115200',
      'at 2026-11-23T02:10:18.000Z the renderer was unresponsive',
      'The scanner Reconnected after Timeout; Serial port opened',
      'manager PIN pad locked after repeated wrong PINs',
    ]) {
      expect(redactor.text(line)).toBe(line);
    }
  });
});

describe('redaction of fields', () => {
  const redactor = new Redactor();

  it('redacts secrets by their exact field names, in either spelling', () => {
    const fields = { apiKey: 'k', access_token: 't', personalAccessToken: 'p', releaseKey: 'r', release_key: 'r2', pin: '1234', pinHash: 'h' };
    expect(Object.values(redactor.value(fields) as object)).toEqual(Array(7).fill('[redacted]'));
  });

  it('keeps field names that only contain "key": the audit line still names the setting changed', () => {
    expect(redactor.value({ key: 'api.baseUrl' })).toEqual({ key: 'api.baseUrl' });
    expect(redactor.value({ keys: ['api.baseUrl', 'idle.timeoutSeconds'] })).toEqual({ keys: ['api.baseUrl', 'idle.timeoutSeconds'] });
    expect(redactor.value({ keyboardLayout: 'qwerty', monkey: 'x' })).toEqual({ keyboardLayout: 'qwerty', monkey: 'x' });
  });

  it('redacts at any depth', () => {
    let deep: Record<string, unknown> = { apiKey: 'fake-deep-key', code: 'KOFFIE2024', note: 'mail jane@example.com' };
    for (let level = 0; level < 12; level += 1) deep = { level, inner: [deep] };
    const text = JSON.stringify(redactor.value(deep));
    expect(text).not.toContain('fake-deep-key');
    expect(text).not.toContain('KOFFIE2024');
    expect(text).not.toContain('jane@');
    expect(text).toContain('"apiKey":"[redacted]"');
  });

  it('follows a cycle only once', () => {
    const loop: Record<string, unknown> = { name: 'a' };
    loop.self = loop;
    expect(redactor.value(loop)).toEqual({ name: 'a', self: '[circular]' });
  });
});
