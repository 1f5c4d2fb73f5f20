import { describe, expect, it } from 'vitest';
import { looksLikeEmail } from './email.std.ts';

describe('looksLikeEmail', () => {
  it('accepts ordinary addresses, with stray spaces around them', () => {
    expect(looksLikeEmail('sanne.devries@example.nl')).toBe(true);
    expect(looksLikeEmail('  j@example.com ')).toBe(true);
  });
  it('refuses what is surely not an address', () => {
    for (const text of ['', 'sanne', 'sanne@', '@example.nl', 'sanne@example', 'san ne@example.nl', 'a@b@c.nl', `${'a'.repeat(250)}@x.nl`]) {
      expect(looksLikeEmail(text), text).toBe(false);
    }
  });
});
