import fs from 'node:fs';
import path from 'node:path';

/**
 * The fuzz suites' shared budget: each surface gets 10,000 inputs across the suite (split over
 * several runs where one would hold CI up), each run with a fixed seed so a failure replays.
 * Every suite records how many inputs it really ran; `npm run bench` reports those counts.
 */
export const FUZZ_INPUTS_PER_SURFACE = 10_000;

export type FuzzSurface = 'bridge' | 'websocket' | 'http' | 'serial' | 'config';

const COUNTS_DIR = path.resolve(import.meta.dirname, '../../test-results/fuzz');

/** Adds `inputs` to the surface's count for this test run (one file per surface and seed). */
export function recordFuzzInputs(surface: FuzzSurface, seed: number, inputs: number): void {
  fs.mkdirSync(COUNTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(COUNTS_DIR, `${surface}-${seed}.json`), `${JSON.stringify({ surface, seed, inputs })}\n`);
}

/** The counts the last `npm test` recorded, by surface (empty when no fuzz suite has run). */
export function readFuzzCounts(): Partial<Record<FuzzSurface, number>> {
  if (!fs.existsSync(COUNTS_DIR)) return {};
  const counts: Partial<Record<FuzzSurface, number>> = {};
  for (const file of fs.readdirSync(COUNTS_DIR)) {
    const { surface, inputs } = JSON.parse(fs.readFileSync(path.join(COUNTS_DIR, file), 'utf8')) as { surface: FuzzSurface; inputs: number };
    counts[surface] = (counts[surface] ?? 0) + inputs;
  }
  return counts;
}
