import type { Locale } from '../../common/config-schema.std.ts';
import { groupedProofCode } from '../../common/proof-code-text.std.ts';
import { slipMessages } from './slip-messages.std.ts';

/** What a slip says: the redemption it proves, and the shop's own lines. */
export interface SlipFacts {
  shopName: string;
  reward: string;
  /** What to do with it (the manager's `proof.tillText`); null: the language's "Show this at the till". */
  tillText: string | null;
  proofCode: string;
  /** When it was redeemed (ISO), shown in the kiosk's local time. */
  at: string;
  kioskId: string;
  seq: number;
  cardLast4: string | null;
  /** A code the till rings the reward up by (`printer.posBarcodeAttribute`). */
  posBarcode: string | null;
  duplicate: boolean;
  /** The shop's logo at the top (a PNG in base64, `printer.logo`); null: none. */
  logo: string | null;
  header: string | null;
  footer: string | null;
  locale: Locale;
}

/**
 * The slip as a ReceiptLine document (receiptline lays it out for the paper's width, as ESC/POS
 * and as an SVG preview). Every text from outside is escaped: a reward named `{code:…}` or `|` is
 * printed as written, never read as markup.
 */
export function slipDocument(facts: SlipFacts): string {
  const t = slipMessages[facts.locale];
  const lines = [
    '{width:*}',
    ...(facts.logo ? [`{image:${facts.logo}}`] : []),
    ...centred(facts.header),
    `^^${escape(facts.shopName)}`,
    ...(facts.duplicate ? ['', `\`^^${t['slip.duplicate']}\``] : []),
    '-',
    `^^"${escape(facts.reward)}"`,
    ...centred(facts.tillText ?? t['slip.till_text']),
    '',
    `{code:${facts.proofCode}; option:code128,3,96,nohri}`,
    `^${groupedProofCode(facts.proofCode)}`,
    ...posBarcode(facts.posBarcode),
    '-',
    `{width:*,*}`,
    `${escape(localTime(facts.at, facts.locale))}|${escape(t['slip.kiosk'])} ${escape(facts.kioskId)}`,
    `${escape(t['slip.number'])} ${facts.seq}|${facts.cardLast4 ? `${escape(t['slip.card'])} **** ${escape(facts.cardLast4)}` : ''}`,
    '{width:*}',
    '-',
    `"${escape(t['slip.single_use'])}"`,
    ...centred(facts.footer),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * A till's own barcode for the reward: EAN-13 or EAN-8 when it is one (its check digit right),
 * else Code 128 when every character is one Code 128 prints.
 */
function posBarcode(value: string | null): string[] {
  if (!value) return [];
  if (/^\d{13}$|^\d{8}$/.test(value) && eanCheckHolds(value)) return ['', `{code:${value}; option:ean,2,72,hri}`];
  if (/^[\x20-\x7e]{1,40}$/.test(value) && !/[;{}|\\]/.test(value)) return ['', `{code:${value}; option:code128,2,72,hri}`];
  return [];
}

function eanCheckHolds(digits: string): boolean {
  const body = digits.slice(0, -1);
  const sum = [...body].reverse().reduce((total, digit, index) => total + Number(digit) * (index % 2 ? 1 : 3), 0);
  return (10 - (sum % 10)) % 10 === Number(digits.at(-1));
}

/** The manager's lines, each centred; none when unset. */
function centred(text: string | null): string[] {
  return text ? text.split('\n').map((line) => (line.trim() ? escape(line.trim()) : '')) : [];
}

/** ReceiptLine's markup characters, taken literally. */
function escape(text: string): string {
  return text.replace(/[\\{|}\-=_"`^~]/g, (char) => `\\${char}`);
}

function localTime(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(iso));
}
