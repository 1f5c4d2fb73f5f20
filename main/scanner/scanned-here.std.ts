/** How long a value main's scanner read waits for the lookup it leads to. */
const KEPT_MS = 60_000;
/** A scanner reads one code at a time; a few are plenty. */
const KEPT_VALUES = 16;

/**
 * The values main's own (serial) scanner read and sent to the screens, each taken once by the
 * lookup it leads to: that lookup is a scan, not a guess. Nothing the renderer says can add one.
 */
export class ScannedHere {
  readonly #readAt = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  add(value: string): void {
    this.#readAt.delete(value);
    this.#readAt.set(value, this.now());
    while (this.#readAt.size > KEPT_VALUES) this.#readAt.delete(this.#readAt.keys().next().value!);
  }

  /** True, once, for a value read in the last minute. */
  take(value: string): boolean {
    const readAt = this.#readAt.get(value);
    this.#readAt.delete(value);
    return readAt !== undefined && this.now() - readAt < KEPT_MS;
  }
}
