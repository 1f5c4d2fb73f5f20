import { IntlMessageFormat } from 'intl-messageformat';
import type { Locale } from '../../common/config-schema.std.ts';
import type { MessageArgs, MessageKey, Translate } from './message-types.std.ts';
import { shopperMessages } from './messages/shopper.std.ts';

/** The console's message areas: each in its own chunk, so the shopper bundle never carries them. */
export type LazyArea = 'console' | 'admin';

type Catalogue = Record<Locale, Readonly<Record<string, string>>>;

const loaders: Record<LazyArea, () => Promise<Catalogue>> = {
  console: async () => (await import('./messages/console.std.ts')).consoleMessages,
  admin: async () => (await import('./messages/admin.std.ts')).adminMessages,
};

/** The shopper's language for this visit (a reset returns to the store's default), and the one t(). */
class I18n {
  locale = $state<Locale>('en');
  /** The languages the store offers (locale.enabled): every shopper screen lets the shopper switch among them. */
  offered = $state<readonly Locale[]>([]);
  readonly #catalogues: Catalogue[] = [shopperMessages];
  readonly #loading = new Map<LazyArea, Promise<void>>();
  /** Compiled per locale and key: parsing ICU on every render would be wasted work. */
  readonly #compiled = new Map<string, IntlMessageFormat>();

  /** The message `key` in the current language, its ICU arguments (and plurals) filled from `values`. */
  t: Translate = <K extends MessageKey>(key: K, ...[values]: MessageArgs<K>): string => this.tIn(this.locale, key, ...([values] as MessageArgs<K>));

  /** The message `key` in `locale`, whatever the shopper's language: the welcome's offer of each other language (#33 §7). */
  tIn = <K extends MessageKey>(locale: Locale, key: K, ...[values]: MessageArgs<K>): string => String(this.#compile(key, locale).format(values));

  /** Whether `key` names a message (of the shopper's or of a loaded area). */
  has = (key: string): key is MessageKey => this.#catalogues.some((catalogue) => Object.hasOwn(catalogue.en, key));

  /** Loads an area's messages in every language (once), so t() finds them and a language switch stays synchronous. */
  loadCatalogue(area: LazyArea): Promise<void> {
    const loading = this.#loading.get(area) ?? this.#load(area);
    this.#loading.set(area, loading);
    return loading;
  }

  /** Dates and times in the shopper's language, in the kiosk's own time zone. */
  date = (iso: string): string => new Date(iso).toLocaleDateString(this.locale, { day: 'numeric', month: 'long', year: 'numeric' });
  time = (iso: string): string => new Date(iso).toLocaleTimeString(this.locale, { hour: '2-digit', minute: '2-digit' });

  use(locale: Locale) {
    this.locale = locale;
    document.documentElement.lang = locale;
  }

  async #load(area: LazyArea): Promise<void> {
    try {
      this.#catalogues.push(await loaders[area]());
    } catch (error) {
      // A failed chunk load may succeed on the next try: do not keep the failure.
      this.#loading.delete(area);
      throw error;
    }
  }

  #compile(key: MessageKey, locale: Locale): IntlMessageFormat {
    const id = `${locale}:${key}`;
    const known = this.#compiled.get(id);
    if (known) return known;
    const compiled = new IntlMessageFormat(this.#template(key, locale), locale);
    this.#compiled.set(id, compiled);
    return compiled;
  }

  #template(key: MessageKey, locale: Locale): string {
    const catalogue = this.#catalogues.find((candidate) => Object.hasOwn(candidate.en, key));
    if (!catalogue) throw new Error(`No message ${key}: is its area's catalogue loaded?`);
    return catalogue[locale][key]!;
  }
}

export const i18n = new I18n();
