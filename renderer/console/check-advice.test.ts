import { describe, expect, it } from 'vitest';
import { checkAdvice } from './check-advice.std.ts';

describe('checkAdvice (the connection test in words, #34 §2)', () => {
  it('says what to do about each way a check fails', () => {
    expect(checkAdvice({ name: 'https', ok: false, detail: 'http:', problem: 'insecure' })).toBe('console.advice.https');
    expect(checkAdvice({ name: 'vouchers', ok: false, detail: 'auth: Unauthenticated.', problem: 'auth' })).toBe('console.advice.auth');
    expect(checkAdvice({ name: 'shop', ok: false, detail: 'not_found: Shop not found.', problem: 'not_found' })).toBe('console.advice.shop');
    expect(checkAdvice({ name: 'shop', ok: false, detail: 'validation: The shop uuid is invalid.', problem: 'validation' })).toBe('console.advice.shop');
    expect(checkAdvice({ name: 'vouchers', ok: false, detail: 'not_found: HTTP 404', problem: 'not_found' })).toBe('console.advice.address');
    expect(checkAdvice({ name: 'vouchers', ok: false, detail: 'network: ECONNREFUSED', problem: 'network' })).toBe('console.advice.network');
    expect(checkAdvice({ name: 'vouchers', ok: false, detail: 'timeout', problem: 'timeout' })).toBe('console.advice.timeout');
    expect(checkAdvice({ name: 'vouchers', ok: false, detail: 'server: HTTP 500', problem: 'server' })).toBe('console.advice.platform');
  });

  it('has nothing to add to a check that passed, or one whose failure main could not name', () => {
    expect(checkAdvice({ name: 'shop', ok: true, detail: 'Amsterdam' })).toBeNull();
    expect(checkAdvice({ name: 'shop', ok: false, detail: 'Error: odd' })).toBeNull();
  });
});
