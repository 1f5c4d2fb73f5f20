import { LoyaltyError } from './errors.std.ts';

/** Distinct keys kept; any further one is counted under `other`, so a strange platform cannot grow the map. */
const MAX_KEYS = 50;

/**
 * How often platform calls failed since the counts began, by `kind`, HTTP status and platform error code
 * (`conflict:409:80005`, `network`): counts only, never a message, so no shopper data can ride along.
 */
export class PlatformErrorCounts {
  readonly #counts: Map<string, number>;

  /** `carried`: the counts of earlier runs, to go on from. */
  constructor(carried: Record<string, number> = {}) {
    this.#counts = new Map(Object.entries(carried).slice(0, MAX_KEYS));
  }

  count(error: unknown): void {
    if (!(error instanceof LoyaltyError)) return;
    const exact = [error.kind, error.status, error.code].filter((part) => part !== undefined).join(':');
    const key = this.#counts.has(exact) || this.#counts.size < MAX_KEYS ? exact : 'other';
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries(this.#counts);
  }
}
