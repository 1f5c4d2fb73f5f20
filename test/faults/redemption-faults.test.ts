import { describe, expect, it } from 'vitest';
import { KILL_STEPS, redeemsWhileUnsettled, runMultiUseLostAnswer, runRedemptionFaults } from '../support/redemption-faults.node.ts';
import type { ProxyRecord } from '../support/fault-proxy.node.ts';

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
    expect(totals.redeemsWhileUnsettled, summary).toBe(0);
    expect(totals.phantomRedemptions, summary).toBe(0);
    // Every redemption that landed has exactly one redeemed row in the ledger, and no row lacks one.
    expect(totals.ledgerMismatches, summary).toBe(0);
    expect(totals.locksLeft, summary).toBe(0);
    // The run really did what it claims: faults of every kind, kills at every step, redemptions.
    expect(totals.runs).toBe(200);
    for (const [fault, count] of Object.entries(totals.faultsByKind)) expect(count, `${fault} never injected; ${summary}`).toBeGreaterThan(0);
    for (const step of KILL_STEPS) expect(totals.kills[step], `never killed at ${step}; ${summary}`).toBeGreaterThan(0);
    expect(totals.redemptions).toBeGreaterThan(50);
  });

  it('multi-use: a lost answer, Find down, a cancel and a second confirm redeem once, and the shopper is told no more than landed', async () => {
    const run = await runMultiUseLostAnswer();
    const summary = JSON.stringify(run);
    expect(run.redeemsWhileUnsettled, summary).toEqual([]);
    // The first Redeem landed; nothing the shopper did after could make it two.
    expect(run.landed, summary).toBe(1);
    expect(run.told, summary).toBeLessThanOrEqual(run.landed);
    expect(run.landed, summary).toBeLessThanOrEqual(run.told + run.pending);
    expect(run.recorded, summary).toBe(run.landed);
  });

  it('counts a Redeem sent while an earlier one is unsettled, until a Find answers', () => {
    const request = (path: string, fault: ProxyRecord['fault'] = null): ProxyRecord => ({ method: 'GET', path, body: '', fault, forwarded: true });
    const redeem = (fault: ProxyRecord['fault'] = null) => ({ ...request('/api/vouchers/redeem', fault), method: 'POST' });
    const find = (fault: ProxyRecord['fault'] = null) => request('/api/vouchers/find?code=C', fault);
    expect(redeemsWhileUnsettled([redeem('drop_answer'), find('status_503'), redeem()])).toEqual([2]);
    expect(redeemsWhileUnsettled([redeem('drop_answer'), find(), redeem()])).toEqual([]);
    expect(redeemsWhileUnsettled([redeem(), redeem()])).toEqual([]);
  });
});
