/** Percentiles, summaries and plain-text tables for the benchmarks (test/bench/run.node.ts). */

/**
 * The p-th percentile (0–100) by linear interpolation between the closest ranks (numpy's
 * default): p0 is the minimum, p100 the maximum, and one value is every percentile.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new RangeError('percentile of no values');
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile ${p} is outside 0–100`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const below = sorted[Math.floor(rank)]!;
  const above = sorted[Math.ceil(rank)]!;
  return below + (above - below) * (rank - Math.floor(rank));
}

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  min: number;
  max: number;
  mean: number;
}

export function summarize(values: readonly number[]): Summary {
  return {
    n: values.length,
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    p99: percentile(values, 99),
    min: percentile(values, 0),
    max: percentile(values, 100),
    mean: values.reduce((sum, value) => sum + value, 0) / values.length,
  };
}

export interface Table {
  title: string;
  columns: readonly string[];
  /** Cells already formatted (see `ms`, `ratio`); the first column is left-aligned, the rest right. */
  rows: readonly (readonly string[])[];
  notes?: readonly string[];
}

/** What one bench part hands the runner: tables to print and raw figures for bench-results.json. */
export interface BenchReport {
  tables: Table[];
  figures: Record<string, unknown>;
}

export const ms = (value: number) => `${value.toFixed(2)} ms`;
export const ratio = (value: number) => `${value.toFixed(2)}x`;

export function formatTable({ title, columns, rows, notes = [] }: Table): string {
  const widths = columns.map((column, index) => Math.max(column.length, ...rows.map((row) => row[index]?.length ?? 0)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) => (index === 0 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [title, line(columns), rule, ...rows.map(line), ...notes.map((note) => `  ${note}`)].join('\n');
}
