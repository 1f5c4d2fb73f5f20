import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../logging/logger.std.ts';
import { LoyaltyError } from './errors.std.ts';
import { ServiceHealth } from './service-health.node.ts';
import { remainingBudgetMs, withTimeBudget } from './time-budget.node.ts';
import { until } from '../../test/support/until.std.ts';

/** A ServiceHealth on a clock the test moves, whose probe answers as `platform.up` says. */
function healthOnClock(options: Partial<ConstructorParameters<typeof ServiceHealth>[0]> = {}) {
  const clock = { now: 1_000_000 };
  const platform = { up: true, delayMs: 0, probes: 0 };
  const health = new ServiceHealth({
    probe: async () => {
      platform.probes += 1;
      await new Promise((resolve) => setTimeout(resolve, platform.delayMs));
      if (!platform.up) throw new LoyaltyError({ kind: 'network', message: 'connection refused' });
    },
    onChange: () => {},
    logger: silentLogger,
    retryMs: 60_000,
    now: () => clock.now,
    ...options,
  });
  return { health, clock, platform };
}

const conflict = new LoyaltyError({ kind: 'conflict', status: 409, code: 80005, message: 'already redeemed' });

describe('ServiceHealth for the fleet', () => {
  it('times each probe, and has no latency for a probe the platform did not answer', async () => {
    const { health, platform } = healthOnClock();
    expect(health.lastProbe()).toBeNull();
    platform.delayMs = 30;
    await health.check();
    expect(health.lastProbe()).toEqual({ latencyMs: expect.any(Number), at: 1_000_000 });
    expect(health.lastProbe()!.latencyMs).toBeGreaterThanOrEqual(25);
    platform.up = false;
    await health.check();
    expect(health.lastProbe()).toEqual({ latencyMs: null, at: 1_000_000 });
    health.close();
  });

  it('takes no old news: a call sent while the platform was down, failing after a newer one got through, changes nothing (#19)', async () => {
    const { health } = healthOnClock();
    let failOld!: (error: unknown) => void;
    const old = health.track(new Promise((_, reject) => (failOld = reject))).catch(() => 'failed');
    await health.track(Promise.resolve('answered'));
    failOld(new LoyaltyError({ kind: 'network', message: 'connection refused, before the platform came back' }));
    await expect(old).resolves.toBe('failed');
    expect(health.status().available).toBe(true);
    // The newest call's outage still counts, and so does a later success after it.
    await health.track(Promise.reject(new LoyaltyError({ kind: 'network', message: 'down' }))).catch(() => undefined);
    expect(health.status().available).toBe(false);
    await health.track(Promise.resolve('back'));
    expect(health.status().available).toBe(true);
    health.close();
  });

  it('counts 429s as rate_limited, apart from outages: the kiosk stays in service and no outage minute accrues', async () => {
    const { health, clock } = healthOnClock();
    const busy = new LoyaltyError({ kind: 'rate_limited', status: 429, code: 429, message: 'too many requests', retryAfterMs: 30_000 });
    await expect(health.track(Promise.reject(busy))).rejects.toBe(busy);
    await expect(health.track(Promise.reject(busy))).rejects.toBe(busy);
    clock.now += 60_000;
    expect(health.status().available).toBe(true);
    expect(health.counters().outOfServiceMs).toBe(0);
    expect(health.counters().errors).toEqual({ 'rate_limited:429:429': 2 });
    health.close();
  });

  it('counts failed platform calls by kind, status and platform code, and nothing else', async () => {
    const { health } = healthOnClock();
    await health.track(Promise.reject(conflict)).catch(() => undefined);
    await health.track(Promise.reject(conflict)).catch(() => undefined);
    await health.track(Promise.reject(new LoyaltyError({ kind: 'timeout', message: 'slow' }))).catch(() => undefined);
    await health.track(Promise.reject(new Error('a bug, not the platform'))).catch(() => undefined);
    await health.track(Promise.resolve('fine'));
    expect(health.counters().errors).toEqual({ 'conflict:409:80005': 2, timeout: 1 });
    health.close();
  });

  it('adds up the time out of service: past outages and the one going on', async () => {
    const { health, clock, platform } = healthOnClock();
    platform.up = false;
    await health.check();
    clock.now += 90_000;
    expect(health.counters().outOfServiceMs).toBe(90_000);
    platform.up = true;
    await health.check();
    clock.now += 600_000;
    expect(health.counters().outOfServiceMs).toBe(90_000);
    platform.up = false;
    await health.check();
    clock.now += 30_000;
    expect(health.counters().outOfServiceMs).toBe(120_000);
    health.close();
  });

  it('goes on from the counters of earlier runs, and says since when they count', async () => {
    const { health, clock, platform } = healthOnClock({ counters: { since: 500_000, errors: { timeout: 3 }, outOfServiceMs: 60_000 } });
    await health.track(Promise.reject(new LoyaltyError({ kind: 'timeout', message: 'slow' }))).catch(() => undefined);
    platform.up = false;
    await health.check();
    clock.now += 30_000;
    expect(health.counters()).toEqual({ since: 500_000, errors: { timeout: 4, network: 1 }, outOfServiceMs: 90_000 });
    health.close();
    const fresh = healthOnClock().health;
    expect(fresh.counters()).toEqual({ since: 1_000_000, errors: {}, outOfServiceMs: 0 });
    fresh.close();
  });

  it('counts no error for a lookup whose miss is an answer, and takes the answer as the platform being there (#23)', async () => {
    const { health } = healthOnClock();
    const miss = new LoyaltyError({ kind: 'not_found', status: 404, message: 'no such voucher' });
    await expect(health.track(Promise.reject(miss), { missIsAnswer: true })).rejects.toBe(miss);
    expect(health.counters().errors).toEqual({});
    await expect(health.track(Promise.reject(miss))).rejects.toBe(miss);
    expect(health.counters().errors).toEqual({ 'not_found:404': 1 });
    health.close();
  });
});

describe('ServiceHealth while the kiosk is idle (#23)', () => {
  afterEach(() => vi.useRealTimers());

  it('probes an available platform once it has gone unheard for the idle time, and finds an outage with no shopper there', async () => {
    vi.useFakeTimers();
    const { health, platform } = healthOnClock({ idleProbeMs: 45_000, retryMs: 5_000 });
    await vi.advanceTimersByTimeAsync(44_000);
    expect(platform.probes).toBe(0);
    await health.track(Promise.resolve('a shopper scanned'));
    await vi.advanceTimersByTimeAsync(44_000);
    expect(platform.probes).toBe(0);
    // A second past the probe: it has answered (its own answer takes a timer tick).
    await vi.advanceTimersByTimeAsync(2_000);
    expect(platform.probes).toBe(1);
    platform.up = false;
    await vi.advanceTimersByTimeAsync(45_000);
    expect(platform.probes).toBe(2);
    expect(health.status().available).toBe(false);
    // Unavailable: tried again at the retry pace, then back to idle probing once it answers.
    platform.up = true;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(platform.probes).toBe(3);
    expect(health.status().available).toBe(true);
    await vi.advanceTimersByTimeAsync(43_000);
    expect(platform.probes).toBe(3);
    health.close();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(platform.probes).toBe(3);
  });

  // Real timers: a timer keeps the async context it was made in only on Node's own clock.
  it('probes outside the time budget of the shopper call that last planned it: a spent budget never fails the kiosk\'s own probe', async () => {
    const budgets: number[] = [];
    const health = new ServiceHealth({
      probe: async () => void budgets.push(remainingBudgetMs()),
      onChange: () => {},
      logger: silentLogger,
      idleProbeMs: 30,
    });
    // A shopper's lookup with 10 ms to spend, whose answer plans the next idle probe.
    await withTimeBudget(10, () => health.track(Promise.resolve('a card')));
    await until(() => budgets.length > 0);
    expect(budgets[0]).toBe(Infinity);
    health.close();
  });

  it('goes on probing after a probe that told nothing (a 429 is no outage)', async () => {
    vi.useFakeTimers();
    let probes = 0;
    const health = new ServiceHealth({
      probe: async () => {
        probes += 1;
        throw new LoyaltyError({ kind: 'rate_limited', status: 429, message: 'too many requests' });
      },
      onChange: () => {},
      logger: silentLogger,
      idleProbeMs: 45_000,
    });
    await vi.advanceTimersByTimeAsync(45_000);
    await vi.advanceTimersByTimeAsync(45_000);
    expect(probes).toBe(2);
    expect(health.status().available).toBe(true);
    health.close();
  });
});
