import type { Locale } from '../../common/config-schema.std.ts';
import { fill } from './fill.std.ts';
import { messages, type MessageKey } from './messages.std.ts';

/** The shopper's language for this visit; a reset returns to the store's default. */
class I18n {
  locale = $state<Locale>('en');

  /** `{name}` placeholders are filled from `params`. */
  t = (key: MessageKey, params: Record<string, string | number> = {}): string => fill(messages[this.locale][key], params);

  /** Dates and times in the shopper's language, in the kiosk's own time zone. */
  date = (iso: string): string => new Date(iso).toLocaleDateString(this.locale, { day: 'numeric', month: 'long', year: 'numeric' });
  time = (iso: string): string => new Date(iso).toLocaleTimeString(this.locale, { hour: '2-digit', minute: '2-digit' });

  use(locale: Locale) {
    this.locale = locale;
    document.documentElement.lang = locale;
  }
}

export const i18n = new I18n();
