import type { Locale } from '../../common/config-schema.std.ts';
import type { Speech } from './speech.svelte.ts';

/**
 * What a shopper chose for themselves: their language, speech mode, high contrast, large text and
 * low reach. Kept for the whole visit, Back to the attract screen included, and forgotten when it
 * ends: the next shopper starts with the store's.
 */
export class ShopperChoices {
  readonly speech: Speech;
  /** Black on white and white on black, no tints (one tap on the attract screen). */
  highContrast = $state(false);
  /** Every size of type half as big again (one tap on the attract screen). */
  largeText = $state(false);
  /** The shopper's own say on low reach; until they have one, it follows speech mode. */
  #lowReach = $state<boolean | null>(null);
  readonly #language: { readonly locale: Locale; use(locale: Locale): void };
  readonly #storeLocale: () => Locale | null;

  constructor(parts: { speech: Speech; language: { readonly locale: Locale; use(locale: Locale): void }; storeLocale: () => Locale | null }) {
    this.speech = parts.speech;
    this.#language = parts.language;
    this.#storeLocale = parts.storeLocale;
  }

  /** Every control within the band a hand reaches (one tap on the attract screen; on by itself in speech mode). */
  get lowReach(): boolean {
    return this.#lowReach ?? this.speech.on;
  }

  set lowReach(on: boolean) {
    this.#lowReach = on;
  }

  /** Whether anything differs from the store's defaults: an idle attract screen then ends the visit too. */
  get personal(): boolean {
    const storeLocale = this.#storeLocale();
    return this.speech.on || this.speech.declined || this.highContrast || this.largeText || this.lowReach || (storeLocale !== null && this.#language.locale !== storeLocale);
  }

  forget() {
    // Ended in the shopper's language, before the store's comes back.
    this.speech.end();
    const storeLocale = this.#storeLocale();
    if (storeLocale) this.#language.use(storeLocale);
    this.highContrast = false;
    this.largeText = false;
    this.#lowReach = null;
  }
}
