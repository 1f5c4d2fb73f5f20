import { runRedemptionFaults } from '../support/redemption-faults.node.ts';
import { ms, type BenchReport } from './stats.std.ts';

/**
 * The redemption fault-injection run (test/faults/redemption-faults.test.ts) as figures: 200
 * seeded redemptions through the loopback fault proxy to the sandbox, each ended by a simulated
 * kill and a recovery, then compared with the sandbox.
 */
export async function benchRedemptionFaults(seed = 20_261_124, runs = 200): Promise<BenchReport> {
  const totals = await runRedemptionFaults({ seed, runs });
  const { faultsByKind, kills, failures, ...counts } = totals;
  const rows: string[][] = [
    ['runs', String(totals.runs)],
    ['requests through the proxy', String(totals.requests)],
    ['faults injected', `${totals.faultsInjected} (${Object.entries(faultsByKind).map(([fault, count]) => `${fault} ${count}`).join(', ')})`],
    ['kills', `${Object.values(kills).reduce((sum, count) => sum + count, 0)} (${Object.entries(kills).map(([step, count]) => `${step} ${count}`).join(', ')})`],
    ['confirms / redemptions landed', `${totals.confirms} / ${totals.redemptions}`],
    ['double redemptions', String(totals.doubleRedemptions)],
    ['redemptions reported that never landed', String(totals.phantomRedemptions)],
    ['locks left after recovery', String(totals.locksLeft)],
    ['lost-answer locks (freed by the platform\'s hour)', String(totals.lostAnswerLocks)],
    ['duration', ms(totals.durationMs)],
  ];
  return {
    tables: [
      {
        title: `Redemption fault injection, seed ${seed}`,
        columns: ['', 'total'],
        rows,
        notes: [
          'In-process kiosk services (real client, service and journal on disk; the kill is simulated), loopback fault proxy, real sandbox.',
          ...failures.slice(0, 5),
        ],
      },
    ],
    figures: { ...counts, faultsByKind, kills, failures: failures.length },
  };
}
