import type { Locale } from '../../preload/config-schema.std.ts';
import { messages, type MessageKey } from './messages.std.ts';

/** The shopper's language for this visit; a reset returns to the store's default. */
class I18n {
  locale = $state<Locale>('en');

  t = (key: MessageKey): string => messages[this.locale][key];

  use(locale: Locale) {
    this.locale = locale;
    document.documentElement.lang = locale;
  }
}

export const i18n = new I18n();
