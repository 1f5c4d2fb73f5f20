import { describe, expect, it } from 'vitest';
import type { Locale } from '../../common/config-schema.std.ts';
import { Speech, type SpeechBridge } from './speech.svelte.ts';
import { ShopperChoices } from './shopper-choices.svelte.ts';

/** A bridge that only records what the visit's end asked of main. */
function recordingBridge() {
  const ended: unknown[] = [];
  const bridge = {
    endSpeech: async (input: unknown) => (ended.push(input), { ok: true, value: null }),
    stopSpeech: async () => ({ ok: true, value: null }),
  } as unknown as SpeechBridge;
  return { bridge, ended };
}

describe('the end of a visit in speech mode (#33 §10)', () => {
  it('is said, in the shopper\'s language, before the store\'s comes back; a visit without speech ends in silence', () => {
    const { bridge, ended } = recordingBridge();
    let locale: Locale = 'nl';
    const speech = new Speech(bridge, () => locale, () => [{ text: `ended (${locale})` }]);
    const choices = new ShopperChoices({ speech, language: { get locale() { return locale; }, use: (next) => void (locale = next) }, storeLocale: () => 'en' });

    speech.start();
    choices.forget();
    expect(ended).toEqual([{ farewell: { locale: 'nl', parts: [{ text: 'ended (nl)' }] } }]);
    expect({ on: speech.on, locale }).toEqual({ on: false, locale: 'en' });

    choices.forget();
    expect(ended.at(-1)).toEqual({ farewell: undefined });
  });
});

describe('speech turned off by the shopper (#33 §12)', () => {
  it('stays declined, which an idle attract screen counts as personal, until the visit ends', () => {
    const { bridge } = recordingBridge();
    const speech = new Speech(bridge, () => 'en', () => []);
    const choices = new ShopperChoices({ speech, language: { locale: 'en', use: () => undefined }, storeLocale: () => 'en' });
    speech.start();
    speech.off();
    expect({ on: speech.on, declined: speech.declined, personal: choices.personal }).toEqual({ on: false, declined: true, personal: true });
    choices.forget();
    expect({ declined: speech.declined, personal: choices.personal }).toEqual({ declined: false, personal: false });
  });
});
