import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import { benchCameraDecode } from '../camera/decode.bench.node.ts';
import { benchClientOverhead } from './client-overhead.bench.node.ts';
import { benchColdStart } from './cold-start.bench.node.ts';
import { benchFleetHealth } from './fleet-health.bench.node.ts';
import { benchFleetScale } from './fleet-scale.bench.node.ts';
import { benchFuzzCounts } from './fuzz-counts.bench.node.ts';
import { benchLedger } from './ledger.bench.node.ts';
import { benchRedemptionFaults } from './redemption-faults.bench.node.ts';
import { benchRoundTrip } from './round-trip.bench.node.ts';
import { benchSandboxLatency } from './sandbox.bench.node.ts';
import { benchSerialToRenderer } from './serial-to-renderer.bench.node.ts';
import { benchSlip } from './slip.bench.node.ts';
import { benchKeyToSpeech } from './speech.bench.node.ts';
import { benchRendererBundle, benchScanToVoucherPaint, benchVisitHeap } from './visit.bench.node.ts';
import { formatTable, type BenchReport } from './stats.std.ts';

/**
 * `npm run bench [-- NAME…]`: runs every bench part (or those whose name contains one of the
 * NAMEs) one after another, prints its tables and writes all figures to ./bench-results.json.
 * Figures, not verdicts: a part that fails is reported and the others still run.
 */

// One line per part.
const parts: { name: string; run: () => Promise<BenchReport> }[] = [
  { name: 'sandbox', run: benchSandboxLatency },
  { name: 'client-overhead', run: benchClientOverhead },
  { name: 'camera-decode', run: benchCameraDecode },
  { name: 'serial-to-renderer', run: benchSerialToRenderer },
  { name: 'visit-scan-to-paint', run: benchScanToVoucherPaint },
  { name: 'visit-heap', run: benchVisitHeap },
  { name: 'visit-bundle', run: benchRendererBundle },
  { name: 'fuzz-counts', run: benchFuzzCounts },
  { name: 'redemption-faults', run: benchRedemptionFaults },
  { name: 'ledger', run: benchLedger },
  { name: 'slip', run: benchSlip },
  { name: 'fleet-health', run: benchFleetHealth },
  { name: 'fleet-scale', run: benchFleetScale },
  { name: 'key-to-speech', run: benchKeyToSpeech },
  { name: 'round-trip', run: benchRoundTrip },
  { name: 'cold-start', run: benchColdStart },
];

const filters = process.argv.slice(2);
const selected = parts.filter((part) => filters.length === 0 || filters.some((filter) => part.name.includes(filter)));
if (selected.length === 0) {
  console.error(`No bench part matches ${filters.join(', ')}; parts: ${parts.map((part) => part.name).join(', ')}`);
  process.exit(2);
}

// Load says how noisy the figures are likely to be; ratios within one run are the steadier read.
const machine = { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, loadavg: os.loadavg() };
const load = machine.loadavg.map((average) => average.toFixed(2)).join(' ');
console.log(`Node ${machine.node}, ${machine.cpus} × ${machine.cpuModel}, load ${load}\n`);

// The tables are for reading; the JSON keeps the raw figures.
const results: Record<string, { figures: BenchReport['figures']; seconds: number } | { error: string }> = {};
for (const part of selected) {
  console.log(`== ${part.name}`);
  const started = performance.now();
  try {
    const report = await part.run();
    results[part.name] = { figures: report.figures, seconds: (performance.now() - started) / 1000 };
    for (const table of report.tables) console.log(`${formatTable(table)}\n`);
  } catch (error) {
    results[part.name] = { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    console.error(`${part.name} failed: ${String(error)}\n`);
  }
}

await writeFile('bench-results.json', `${JSON.stringify({ date: new Date().toISOString(), machine, parts: results }, null, 2)}\n`);
console.log('Results written to bench-results.json');
if (Object.values(results).some((result) => 'error' in result)) process.exitCode = 1;
