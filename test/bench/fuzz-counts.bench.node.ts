import { FUZZ_INPUTS_PER_SURFACE, readFuzzCounts, type FuzzSurface } from '../fuzz/fuzz-budget.node.ts';
import type { BenchReport } from './stats.std.ts';

const SURFACES: FuzzSurface[] = ['bridge', 'websocket', 'http', 'serial', 'config'];

/**
 * What the fuzz suites really ran in the last `npm test` (each records its own count): the bench
 * reports them beside the budget rather than running 50,000 inputs again.
 */
export async function benchFuzzCounts(): Promise<BenchReport> {
  const counts = readFuzzCounts();
  const rows = SURFACES.map((surface) => [surface, String(counts[surface] ?? 0), String(FUZZ_INPUTS_PER_SURFACE)]);
  const total = SURFACES.reduce((sum, surface) => sum + (counts[surface] ?? 0), 0);
  return {
    tables: [
      {
        title: 'Fuzz inputs run by the last npm test, per surface',
        columns: ['surface', 'inputs run', 'budget'],
        rows: [...rows, ['all', String(total), String(FUZZ_INPUTS_PER_SURFACE * SURFACES.length)]],
        notes: total === 0 ? ['No counts recorded: run npm test (or vitest run test/fuzz) first.'] : [],
      },
    ],
    figures: { counts, budgetPerSurface: FUZZ_INPUTS_PER_SURFACE },
  };
}
