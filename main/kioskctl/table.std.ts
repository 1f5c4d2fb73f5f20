/**
 * Control characters (C0, DEL, C1, line separators) and bidi controls (embeddings, overrides,
 * isolates, the LRM/RLM and Arabic letter marks) shown as `\xNN` / `\uNNNN`: a cell may hold what a
 * feed, a platform, a kiosk or a file said, and a terminal or a spreadsheet must never take it as a
 * command, nor show it reordered.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The one neutraliser every kioskctl output goes through (tables, lines, CSV, JSON). */
export function printable(text: string): string {
  return text.replace(CONTROL, (char) => {
    const code = char.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** `text` cut to at most `max` characters, a cut one ending in `…` (never half a surrogate pair). */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\ud800-\udbff]/.test(text.charAt(max - 2)) ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}

/** Rows as aligned columns for a terminal, every cell printable; the last column is left ragged. */
export function formatTable(rows: readonly (readonly string[])[]): string {
  const cells = rows.map((row) => row.map(printable));
  const widths = cells[0]?.map((_, column) => Math.max(...cells.map((row) => row[column]?.length ?? 0))) ?? [];
  return cells
    .map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  '))
    .join('\n')
    .concat('\n');
}
