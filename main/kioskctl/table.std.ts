import { printable } from '../../base/csv.std.ts';

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
