import type { ServiceStatus } from '../../common/shopper-views.std.ts';
import type { Logger } from '../logging/logger.std.ts';
import { LoyaltyError, type LoyaltyErrorKind } from './errors.std.ts';

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
  /** How often an unavailable platform is tried again; nothing runs while it is available. */
  retryMs?: number;
}

/**
 * Whether the kiosk can serve shoppers. Every platform call reports here; an outage flips the kiosk
 * to "out of service" and starts a background probe that flips it back by itself.
 */
export class ServiceHealth {
  #status: ServiceStatus = { available: true, checkedAt: Date.now() };
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(private readonly options: ServiceHealthOptions) {}

  status(): ServiceStatus {
    return { ...this.#status };
  }

  /** Runs one platform call and learns from how it went. */
  async track<T>(call: Promise<T>): Promise<T> {
    try {
      const value = await call;
      this.#set(true);
      return value;
    } catch (error) {
      if (isOutage(error)) this.#set(false, error as LoyaltyError);
      throw error;
    }
  }

  /** Probes now (start-up, or the out-of-service screen's own retry). */
  async check(): Promise<ServiceStatus> {
    await this.track(this.options.probe()).catch(() => undefined);
    return this.status();
  }

  close() {
    this.#closed = true;
    clearTimeout(this.#timer);
  }

  #set(available: boolean, error?: LoyaltyError) {
    const changed = available !== this.#status.available;
    this.#status = { available, checkedAt: Date.now() };
    if (changed) {
      if (available) this.options.logger.info('loyalty platform reachable again');
      else this.options.logger.warn('loyalty platform unavailable; out of service', { kind: error?.kind, status: error?.status });
      this.options.onChange(this.status());
    }
    if (!available) this.#scheduleProbe();
    else clearTimeout(this.#timer);
  }

  #scheduleProbe() {
    if (this.#closed || this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.check();
    }, this.options.retryMs ?? 5_000);
  }
}
