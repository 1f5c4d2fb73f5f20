import type { AdminKey } from './messages/en/admin.std.ts';
import type { ConsoleKey } from './messages/en/console.std.ts';
import type { ShopperKey } from './messages/en/shopper.std.ts';

/** Any message of the kiosk: the shopper's, the console's or its admin tabs' (no key is in two). */
export type MessageKey = ShopperKey | ConsoleKey | AdminKey;

/** What fills a message's ICU arguments: `{name}` takes text or a number, a plural a number. */
export type MessageValues = Readonly<Record<string, string | number>>;

/** The one message lookup (i18n.t), as handed to pure helpers that word their results. */
export type Translate = (key: MessageKey, values?: MessageValues) => string;
