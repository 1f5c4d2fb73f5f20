import { describe, expect, it } from 'vitest';
import type { Locale } from '../../common/config-schema.std.ts';
import { ShopperChoices } from './shopper-choices.svelte.ts';
import type { Speech } from './speech.svelte.ts';

function choices() {
  const speech = { on: false, end: () => void (speech.on = false) };
  const language = { locale: 'en' as Locale, use: (locale: Locale) => void (language.locale = locale) };
  return { speech, made: new ShopperChoices({ speech: speech as unknown as Speech, language, storeLocale: () => 'en' }) };
}

describe('ShopperChoices', () => {
  it('lowers the screens (low reach) by itself in speech mode, until the shopper says otherwise', () => {
    const { speech, made } = choices();
    expect(made.lowReach).toBe(false);
    speech.on = true;
    expect(made.lowReach).toBe(true);
    made.lowReach = false;
    expect(made.lowReach).toBe(false);
  });

  it('counts large text and low reach as the shopper\'s own, and forgets them with the visit', () => {
    const { made } = choices();
    expect(made.personal).toBe(false);
    made.largeText = true;
    made.lowReach = true;
    expect(made.personal).toBe(true);
    made.forget();
    expect({ largeText: made.largeText, lowReach: made.lowReach, personal: made.personal }).toEqual({ largeText: false, lowReach: false, personal: false });
  });
});
