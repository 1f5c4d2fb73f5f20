import type { ShopperKey } from '../i18n/messages/en/shopper.std.ts';

export type LayoutName = 'email' | 'text' | 'url' | 'numeric' | 'code' | 'code-digits';

/** Keys that do something other than type their own text; each is named `keyboard.<action>`. */
export type KeyAction = 'shift' | 'backspace' | 'space' | 'clear' | 'done';

/**
 * `span` is the key's width in standard key widths (default 1). A text key types `text` (one
 * character or several, such as `.com`); `name` is its spoken name where screen readers would
 * mumble or skip the bare symbol.
 */
export type Key =
  | { readonly kind: 'text'; readonly text: string; readonly name?: ShopperKey; readonly span?: number }
  | { readonly kind: 'action'; readonly action: KeyAction; readonly span?: number }
  /** Shows another layout (letters ↔ digits); types nothing. */
  | { readonly kind: 'switch'; readonly to: LayoutName; readonly name: ShopperKey; readonly span?: number };

export type Layout = readonly (readonly Key[])[];

const chars = (row: string): Key[] => [...row].map((text) => ({ kind: 'text', text }));
const text = (text: string, name?: ShopperKey, span?: number): Key => ({ kind: 'text', text, name, span });
const action = (action: KeyAction, span?: number): Key => ({ kind: 'action', action, span });
const switchTo = (to: LayoutName, name: ShopperKey, span?: number): Key => ({ kind: 'switch', to, name, span });

const digits = chars('1234567890');
const letters = [chars('qwertyuiop'), chars('asdfghjkl')];

export const layouts: Record<LayoutName, Layout> = {
  // No shift: e-mail addresses are case-insensitive in practice, and a stray capital only confuses.
  email: [
    digits,
    ...letters,
    [...chars('zxcvbnm'), text('-', 'keyboard.hyphen'), text('_', 'keyboard.underscore'), action('backspace')],
    [text('@', 'keyboard.at', 1.5), text('.', 'keyboard.dot'), text('.com', undefined, 2), text('.nl', undefined, 2), action('done', 3.5)],
  ],
  // Names and addresses: hyphen and apostrophe for Jean-Luc and O'Neill, digits for house numbers.
  text: [
    digits,
    ...letters,
    [action('shift', 1.5), ...chars('zxcvbnm'), action('backspace', 1.5)],
    [text('-', 'keyboard.hyphen'), text("'", 'keyboard.apostrophe'), action('space', 5), text('.', 'keyboard.dot'), action('done', 2)],
  ],
  // Web addresses, API keys and device paths: capitals for keys, the symbols addresses are made of.
  url: [
    digits,
    ...letters,
    [action('shift', 1.5), ...chars('zxcvbnm'), action('backspace', 1.5)],
    [
      text(':', 'keyboard.colon'),
      text('/', 'keyboard.slash'),
      text('.', 'keyboard.dot'),
      text('-', 'keyboard.hyphen'),
      text('_', 'keyboard.underscore'),
      text('https://', undefined, 2),
      // Plain http is for a platform on this computer itself (a local sandbox or proxy).
      text('http://', undefined, 1.5),
      action('done', 1.5),
    ],
  ],
  // Card numbers and voucher codes as printed: capitals and digits, no symbols to miss, a big digit pad one tap away.
  code: [
    digits,
    chars('QWERTYUIOP'),
    chars('ASDFGHJKL'),
    [...chars('ZXCVBNM'), action('backspace', 3)],
    [switchTo('code-digits', 'keyboard.digits', 3), text('-', 'keyboard.hyphen'), action('clear', 2), action('done', 4)],
  ],
  // Card numbers are mostly digits: the phone-style pad, and back to the letters.
  'code-digits': [chars('123'), chars('456'), chars('789'), [switchTo('code', 'keyboard.letters'), text('0'), action('backspace')], [action('done', 3)]],
  // PINs and amounts: a phone-style pad.
  numeric: [chars('123'), chars('456'), chars('789'), [action('clear'), text('0'), action('backspace')], [action('done', 3)]],
};

/** How many standard key widths the widest row takes; the panel sizes its keys from it. */
export function layoutColumns(layout: Layout): number {
  return Math.max(...layout.map((row) => row.reduce((sum, key) => sum + (key.span ?? 1), 0)));
}
