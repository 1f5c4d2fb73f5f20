/** What one framed line from a hand scanner says, once it is text. */
export type ScanLine =
  | { ok: true; value: string; symbology?: string }
  /**
   * `invalid-utf8`: the bytes are not UTF-8, typically a baud-rate or parity mismatch; the line
   * is dropped whole, because a card number with a replaced character would identify the wrong
   * shopper. `empty`: nothing printable was left (blank lines between CR and LF, stray controls).
   */
  | { ok: false; reason: 'invalid-utf8' | 'empty' };

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** Controls, format characters and other non-printables scanners add (STX/ETX, tabs, NUL). */
const NON_PRINTABLE = /\p{C}/gu;
/** AIM symbology identifier: `]`, a code letter, a modifier character, e.g. `]Q1`, `]E0`. */
const AIM_PREFIX = /^\](?<symbology>[A-Za-z][0-9A-Za-z])/;

export function parseScanLine(bytes: Uint8Array): ScanLine {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, reason: 'invalid-utf8' };
  }
  const printable = text.replace(NON_PRINTABLE, '').trim();
  const symbology = AIM_PREFIX.exec(printable)?.groups?.symbology;
  const value = symbology === undefined ? printable : printable.slice(3).trim();
  if (value === '') return { ok: false, reason: 'empty' };
  return symbology === undefined ? { ok: true, value } : { ok: true, value, symbology };
}
