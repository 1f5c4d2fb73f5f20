import { describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n.svelte';
import { spelledOut, textChange } from './spelled.std.ts';

describe('spelledOut', () => {
  it('says a card number digit by digit, and symbols by their names in the shopper’s language', () => {
    expect(spelledOut('2400', i18n.t)).toBe('2 4 0 0');
    expect(spelledOut('s.a@x-y.nl', i18n.t)).toBe('s dot a at x hyphen y dot n l');
    i18n.use('nl');
    try {
      expect(spelledOut('a@b.nl', i18n.t)).toBe('a apenstaartje b punt n l');
    } finally {
      i18n.use('en');
    }
  });

  it('says nothing of an empty text', () => {
    expect(spelledOut('', i18n.t)).toBe('');
  });
});

describe('textChange', () => {
  it('finds what a key typed or took away, wherever the caret was', () => {
    expect(textChange('240', '2407')).toEqual({ inserted: '7', removed: '' });
    expect(textChange('2407', '240')).toEqual({ inserted: '', removed: '7' });
    expect(textChange('2407', '207')).toEqual({ inserted: '', removed: '4' });
    expect(textChange('ab', 'ab.com')).toEqual({ inserted: '.com', removed: '' });
    expect(textChange('2400', '')).toEqual({ inserted: '', removed: '2400' });
    // A repeated character: the one added is found once, not twice.
    expect(textChange('22', '222')).toEqual({ inserted: '2', removed: '' });
    expect(textChange('ab', 'ab')).toEqual({ inserted: '', removed: '' });
  });
});
