import { describe, expect, it } from 'vitest';
import { SETUP_CARD_PREFIX } from '../../common/input-rules.std.ts';
import { openSetupCard, sealSetupCard, SetupCardError } from './setup-card.node.ts';

const CONTENT = { baseUrl: 'https://loyalty.example/api', shopUuid: '0b8e1f4e-3c2a-4d7b-9a51-2f6c8d9e0a1b', apiKey: 'k'.repeat(56) };

describe('setup cards (#34 §2)', () => {
  it('opens with the setup code that sealed it, and is one scannable line that shows no secret', () => {
    const card = sealSetupCard(CONTENT, '12345678');
    expect(card).toMatch(new RegExp(`^${SETUP_CARD_PREFIX.replace('.', '\\.')}[A-Za-z0-9_-]+$`));
    expect(card).not.toContain('kkkk');
    expect(card).not.toContain('loyalty.example');
    expect(openSetupCard(`${card}\n`, '12345678')).toEqual(CONTENT);
    // Sealed afresh each time: two cards of the same content differ.
    expect(sealSetupCard(CONTENT, '12345678')).not.toBe(card);
  });

  it('refuses, in words, a card for another code, a damaged or cut one, and any other scan', () => {
    const card = sealSetupCard(CONTENT, '12345678');
    const flipped = card.slice(0, -4) + (card.at(-4) === 'A' ? 'B' : 'A') + card.slice(-3);
    for (const [text, said] of [
      [card, /made for another kiosk's setup code, or is damaged/],
      [flipped, /made for another kiosk's setup code, or is damaged/],
      [card.slice(0, 40), /incomplete: scan it again/],
      ['4006381333931', /not a setup card/],
      [`${SETUP_CARD_PREFIX}${'A'.repeat(5_000)}`, /not a setup card/],
    ] as const) {
      const code = text === card ? '87654321' : '12345678';
      expect(() => openSetupCard(text, code)).toThrow(SetupCardError);
      expect(() => openSetupCard(text, code)).toThrow(said);
    }
  });

  it('seals only what a kiosk can use: an http(s) address, a shop uuid or none, a key', () => {
    expect(() => sealSetupCard({ ...CONTENT, baseUrl: 'ftp://x.example' }, '12345678')).toThrow();
    expect(() => sealSetupCard({ ...CONTENT, apiKey: ' ' }, '12345678')).toThrow();
    expect(() => sealSetupCard(CONTENT, '1234')).toThrow(/8 digits/);
    expect(openSetupCard(sealSetupCard({ ...CONTENT, shopUuid: null }, '00000000'), '00000000').shopUuid).toBeNull();
  });
});
