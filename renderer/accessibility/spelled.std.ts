import type { Translate } from '../i18n/message-types.std.ts';
import type { ShopperKey } from '../i18n/messages/en/shopper.std.ts';

/** The symbols a code, an e-mail or a name is typed with, by the name the on-screen keyboard gives them. */
const SYMBOL_NAMES: Record<string, ShopperKey> = {
  ' ': 'keyboard.space',
  '@': 'keyboard.at',
  '.': 'keyboard.dot',
  '-': 'keyboard.hyphen',
  _: 'keyboard.underscore',
  "'": 'keyboard.apostrophe',
  ':': 'keyboard.colon',
  '/': 'keyboard.slash',
};

/**
 * `text` character by character, as a shopper checks what was typed (#33 §9): a card number digit
 * by digit ("2 4 0 0", never "two trillion"), a symbol by its name in the shopper's language.
 */
export function spelledOut(text: string, t: Translate): string {
  return [...text].map((character) => (character in SYMBOL_NAMES ? t(SYMBOL_NAMES[character]!) : character)).join(' ');
}

/** What an edit of a field typed and took away: the part between what stayed before and after it. */
export function textChange(before: string, after: string): { inserted: string; removed: string } {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  return { inserted: after.slice(start, after.length - end), removed: before.slice(start, before.length - end) };
}
