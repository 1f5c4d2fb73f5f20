import type { messages as admin } from './messages/en/admin.std.ts';
import type { messages as console } from './messages/en/console.std.ts';
import type { messages as shopper } from './messages/en/shopper.std.ts';

/** Every message in English, the reference: the types of keys and arguments are read from it. */
type English = typeof shopper & typeof console & typeof admin;

/** Any message of the kiosk: the shopper's, the console's or its admin tabs' (no key is in two). */
export type MessageKey = keyof English;

/** Text an ICU argument name cannot hold: what follows a `{` that opens a plural option instead. */
type NotInName = ' ' | ',' | '{' | '}' | '#' | '\n';
type IsName<S extends string> = S extends '' ? false : S extends `${string}${NotInName}${string}` ? false : true;

/** The argument names of an ICU message: each `{name}`, and each `{name, plural|select, …}` with those inside it. */
type ArgumentNames<S extends string> = S extends `${string}{${infer After}`
  ? After extends `${infer Name}}${infer Rest}`
    ? IsName<Name> extends true
      ? Name | ArgumentNames<Rest>
      : After extends `${infer Selector},${infer Options}`
        ? IsName<Selector> extends true
          ? Selector | ArgumentNames<Options>
          : ArgumentNames<After>
        : ArgumentNames<After>
    : never
  : never;

/** What fills the arguments of `key`: nothing when it has none, else a value for each of them. */
export type MessageArgs<K extends MessageKey> = K extends unknown
  ? [ArgumentNames<English[K]>] extends [never]
    ? []
    : [values: Readonly<Record<ArgumentNames<English[K]>, string | number>>]
  : never;

/** What fills a message's ICU arguments: `{name}` takes text or a number, a plural a number. */
export type MessageValues = Readonly<Record<string, string | number>>;

/** The one message lookup (i18n.t), as handed to pure helpers that word their results. */
export type Translate = <K extends MessageKey>(key: K, ...values: MessageArgs<K>) => string;
