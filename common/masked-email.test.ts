import { describe, expect, it } from 'vitest';
import { maskEmail } from './masked-email.std.ts';

describe('maskEmail', () => {
  it('keeps the first letter and the domain only', () => {
    expect(maskEmail('sanne.devries@example.nl')).toBe('s•••@example.nl');
    expect(maskEmail('j@example.com')).toBe('j•••@example.com');
  });
  it('never shows an address it cannot parse', () => {
    expect(maskEmail('no-at-sign')).toBe('•••');
    expect(maskEmail('@example.com')).toBe('•••');
    expect(maskEmail(null)).toBeNull();
  });
});
