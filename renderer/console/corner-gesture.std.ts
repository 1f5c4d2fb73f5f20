/**
 * The store manager's way in: press and hold the corner for `holdMs`, or tap it `taps` times
 * within `tapWindowMs`. Pure: the caller feeds pointer events with their timestamps (one clock,
 * e.g. `performance.now()`) and runs a timer to `holdDeadline` so a hold fires while still held.
 */
export interface CornerGestureOptions {
  holdMs: number;
  taps: number;
  tapWindowMs: number;
}

const CORNER_GESTURE: CornerGestureOptions = { holdMs: 3_000, taps: 5, tapWindowMs: 3_000 };

export class CornerGesture {
  readonly options: CornerGestureOptions;
  /** When the press now held in the corner started; null when no finger is down there. */
  #pressedAt: number | null = null;
  /** Start times of the recent taps, oldest first. */
  #taps: number[] = [];

  constructor(options: Partial<CornerGestureOptions> = {}) {
    this.options = { ...CORNER_GESTURE, ...options };
  }

  /** When the press held now completes as a long press; null when nothing is held. */
  get holdDeadline(): number | null {
    return this.#pressedAt === null ? null : this.#pressedAt + this.options.holdMs;
  }

  press(at: number): void {
    this.#pressedAt = at;
  }

  /** The finger lifts in the corner; true when that completes the taps. */
  release(at: number): boolean {
    const pressedAt = this.#pressedAt;
    this.#pressedAt = null;
    if (pressedAt === null) return false;
    if (at - pressedAt >= this.options.holdMs) return this.#fire();
    this.#taps = [...this.#taps, pressedAt].filter((tap) => at - tap <= this.options.tapWindowMs);
    return this.#taps.length >= this.options.taps ? this.#fire() : false;
  }

  /** The finger slid out of the corner or the press was cancelled: neither a hold nor a tap. */
  cancel(): void {
    this.#pressedAt = null;
  }

  /** At or after `holdDeadline` with the finger still down: true once, for a completed hold. */
  check(now: number): boolean {
    const deadline = this.holdDeadline;
    return deadline !== null && now >= deadline ? this.#fire() : false;
  }

  #fire(): true {
    this.#pressedAt = null;
    this.#taps = [];
    return true;
  }
}
