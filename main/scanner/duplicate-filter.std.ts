/** Same value again within this window is the same scan (trigger bounce, card held in view). */
export const DUPLICATE_WINDOW_MS = 500;

/**
 * Drops a value seen less than `windowMs` ago. The window runs from the latest sighting, so a
 * card left in front of a presentation scanner that re-reads it is one scan, not one per window.
 */
export class DuplicateFilter {
  #lastValue: string | undefined;
  #lastSeenAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly windowMs = DUPLICATE_WINDOW_MS) {}

  /** True when `value` seen at `at` (epoch ms) is a new scan. */
  accept(value: string, at: number): boolean {
    const duplicate = value === this.#lastValue && at - this.#lastSeenAt < this.windowMs;
    this.#lastValue = value;
    this.#lastSeenAt = at;
    return !duplicate;
  }
}
