/**
 * Control characters (C0, DEL, C1, line separators) and bidi controls (embeddings, overrides,
 * isolates, the LRM/RLM and Arabic letter marks) shown as `\xNN` / `\uNNNN`: a cell may hold what a
 * feed, a platform, a kiosk or a file said, and a terminal or a spreadsheet must never take it as a
 * command, nor show it reordered.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The one neutraliser every text output goes through (kioskctl's tables, lines and JSON; every CSV). */
export function printable(text: string): string {
  return text.replace(CONTROL, (char) => {
    const code = char.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** JSON whose every string and key went through `printable`: `indent` spaces, or one line without. */
export function printableJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'string' ? printable(inner) : isRecord(inner) ? printableKeys(inner) : inner), indent);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const printableKeys = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).map(([key, inner]) => [printable(key), inner]));

/** A text a spreadsheet could run: = + - @ TAB or CR first, after any whitespace (OWASP's CSV injection list). */
const FORMULA = /^\s*[=+\-@\t\r]/;

/**
 * One CSV cell, RFC 4180 (a cell with a comma, quote or line break is quoted, its quotes doubled),
 * every text printable. A text that could be a formula gets a leading ' and quotes, whoever wrote
 * it: only numbers are written bare, a negative one included.
 */
export function csvCell(value: string | number | boolean | null): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = printable(value ?? '');
  const quoted = (cell: string) => `"${cell.replace(/"/g, '""')}"`;
  if (FORMULA.test(text)) return quoted(`'${text}`);
  return /[",\r\n]/.test(text) ? quoted(text) : text;
}

/** A CSV document: the header, then a line per row, each line ended by CRLF (RFC 4180). */
export function csvDocument(columns: readonly string[], rows: readonly (readonly (string | number | boolean | null)[])[]): string {
  return [columns.join(','), ...rows.map((row) => row.map(csvCell).join(','))].join('\r\n').concat('\r\n');
}
