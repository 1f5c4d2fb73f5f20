import type { ServiceStatus } from '../../common/shopper-views.std.ts';
import type { Logger } from '../logging/logger.std.ts';
import { LoyaltyError, type LoyaltyErrorKind } from './errors.std.ts';
import { PlatformErrorCounts } from './platform-error-counts.std.ts';
import { outsideTimeBudget } from './time-budget.node.ts';

/** Failures that mean the platform cannot serve anyone right now, not that one request was wrong. */
const OUTAGE_KINDS = new Set<LoyaltyErrorKind>(['network', 'timeout', 'maintenance', 'server', 'auth']);

export function isOutage(error: unknown): boolean {
  return error instanceof LoyaltyError && OUTAGE_KINDS.has(error.kind);
}

export interface ServiceHealthOptions {
  /** One cheap call that succeeds whenever the kiosk can serve. */
  probe: () => Promise<unknown>;
  onChange: (status: ServiceStatus) => void;
  logger: Logger;
  /** How often an unavailable platform is tried again. */
  retryMs?: number;
  /**
   * How long an available platform may go unheard before it is probed (default 45 s): an idle
   * kiosk finds an outage within a minute too, not only when a shopper scans.
   */
  idleProbeMs?: number;
  /** The counters of earlier runs, to go on from (HealthCounters); default: counting starts now. */
  counters?: CountersSoFar;
  now?: () => number;
}

/** What the kiosk counts across restarts: since when, failed calls by key, and time out of service. */
export interface CountersSoFar {
  since: number;
  errors: Record<string, number>;
  outOfServiceMs: number;
}

/** A call whose `not_found` is an answer ("no such card"), not a failure: it is not counted. */
export interface TrackOptions {
  missIsAnswer?: boolean;
}

/** The last probe: how long the platform took to answer (null: it did not), and when (epoch ms). */
export interface ProbeTiming {
  latencyMs: number | null;
  at: number;
}

/**
 * Whether the kiosk can serve shoppers. Every platform call reports here; an outage flips the kiosk
 * to "out of service" and starts a background probe that flips it back by itself.
 */
export class ServiceHealth {
  #status: ServiceStatus;
  /** The retry while unavailable, or the idle probe while available. */
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #now: () => number;
  readonly #errors: PlatformErrorCounts;
  readonly #countingSince: number;
  #lastProbe: ProbeTiming | null = null;
  /** Time out of service in outages that ended, and when the current one began (null: serving). */
  #pastOutagesMs: number;
  #outageSince: number | null = null;
  /** Calls numbered as they start, and the number of the call whose outcome set the status last. */
  #started = 0;
  #toldBy = 0;
  #retrying = false;

  constructor(private readonly options: ServiceHealthOptions) {
    this.#now = options.now ?? Date.now;
    this.#status = { available: true, checkedAt: this.#now() };
    this.#errors = new PlatformErrorCounts(options.counters?.errors);
    this.#countingSince = options.counters?.since ?? this.#now();
    this.#pastOutagesMs = options.counters?.outOfServiceMs ?? 0;
    this.#scheduleProbe();
  }

  status(): ServiceStatus {
    return { ...this.#status };
  }

  lastProbe(): ProbeTiming | null {
    return this.#lastProbe && { ...this.#lastProbe };
  }

  /**
   * Since when the counters count, failed platform calls by kind, status and platform code (every
   * call passes through track), and time out of service, the current outage included.
   */
  counters(): CountersSoFar {
    const current = this.#outageSince === null ? 0 : this.#now() - this.#outageSince;
    return { since: this.#countingSince, errors: this.#errors.snapshot(), outOfServiceMs: this.#pastOutagesMs + current };
  }

  /** Runs one platform call and learns from how it went. */
  async track<T>(call: Promise<T>, { missIsAnswer = false }: TrackOptions = {}): Promise<T> {
    const order = ++this.#started;
    try {
      const value = await call;
      this.#learn(order, true);
      return value;
    } catch (error) {
      const answered = missIsAnswer && error instanceof LoyaltyError && error.kind === 'not_found';
      if (answered) this.#learn(order, true);
      else this.#errors.count(error);
      if (isOutage(error)) this.#learn(order, false, error as LoyaltyError);
      throw error;
    }
  }

  /**
   * A call's outcome sets the status unless a call that started after it has told already: a
   * request sent while the platform was down, failing after a newer one got through, is old news
   * (it flapped the kiosk out of service and ended the visit of a shopper who had just scanned).
   */
  #learn(order: number, available: boolean, error?: LoyaltyError) {
    if (order < this.#toldBy) return;
    this.#toldBy = order;
    this.#set(available, error);
  }

  /** Probes now (start-up, the renderer asking, or the probe's own timer), timing the answer. */
  async check(): Promise<ServiceStatus> {
    const started = performance.now();
    const answered = await this.track(this.options.probe()).then(
      () => true,
      () => false,
    );
    this.#lastProbe = { latencyMs: answered ? Math.round(performance.now() - started) : null, at: this.#now() };
    // A probe that told nothing (a 429, old news) still leaves the next one planned.
    this.#scheduleProbe();
    return this.status();
  }

  close() {
    this.#closed = true;
    clearTimeout(this.#timer);
  }

  #set(available: boolean, error?: LoyaltyError) {
    const changed = available !== this.#status.available;
    this.#status = { available, checkedAt: this.#now() };
    if (changed) {
      this.#countOutage(available);
      if (available) this.options.logger.info('loyalty platform reachable again', { event: 'platform.reachable' });
      else this.options.logger.warn('loyalty platform unavailable; out of service', { event: 'platform.unavailable', kind: error?.kind, status: error?.status });
      this.options.onChange(this.status());
    }
    this.#scheduleProbe();
  }

  #countOutage(available: boolean) {
    if (!available) this.#outageSince = this.#now();
    else if (this.#outageSince !== null) {
      this.#pastOutagesMs += this.#now() - this.#outageSince;
      this.#outageSince = null;
    }
  }

  /**
   * The next probe: soon while unavailable (one retry pending is enough); while available, only
   * once the platform has gone unheard for the idle time (each answer moves it on).
   */
  #scheduleProbe() {
    if (this.#closed) return;
    const available = this.#status.available;
    if (!available && this.#timer && this.#retrying) return;
    clearTimeout(this.#timer);
    this.#retrying = !available;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        // The kiosk's own probe: never inside the time budget of the shopper's call that planned it
        // (the timer keeps that call's context, and a spent budget fails every request at once).
        void outsideTimeBudget(() => this.check());
      },
      available ? (this.options.idleProbeMs ?? 45_000) : (this.options.retryMs ?? 5_000),
    );
    this.#timer.unref?.();
  }
}
