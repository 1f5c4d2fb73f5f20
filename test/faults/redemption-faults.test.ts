import { describe, expect, it } from 'vitest';
import { KILL_STEPS, runRedemptionFaults } from '../support/redemption-faults.node.ts';

/**
 * Redemption fault injection: 200 seeded randomised redemptions across single-use and multi-use
 * vouchers, through a loopback fault proxy to the real sandbox, each ended by a simulated kill
 * (see test/support/redemption-faults.node.ts for what is real and what is simulated) and a
 * restart that recovers from the journal on disk. Replay a failure with its seed.
 */

const SEED = 20_261_124;

describe('redemption fault injection', () => {
  it('never redeems twice and leaves no lock held once recovery has run, over 200 seeded runs', { timeout: 150_000 }, async () => {
    const totals = await runRedemptionFaults({ seed: SEED, runs: 200 });
    const summary = `seed ${SEED}: ${JSON.stringify({ ...totals, failures: totals.failures.slice(0, 10) })}`;

    expect(totals.failures, summary).toEqual([]);
    expect(totals.doubleRedemptions, summary).toBe(0);
    expect(totals.phantomRedemptions, summary).toBe(0);
    expect(totals.locksLeft, summary).toBe(0);
    // The run really did what it claims: faults of every kind, kills at every step, redemptions.
    expect(totals.runs).toBe(200);
    for (const [fault, count] of Object.entries(totals.faultsByKind)) expect(count, `${fault} never injected; ${summary}`).toBeGreaterThan(0);
    for (const step of KILL_STEPS) expect(totals.kills[step], `never killed at ${step}; ${summary}`).toBeGreaterThan(0);
    expect(totals.redemptions).toBeGreaterThan(50);
  });
});
