/**
 * Tells a keyboard-wedge barcode scanner from a person typing, from key timing alone. A scanner
 * "types" a burst of characters a few ms apart and ends it with Enter or Tab; people are far
 * slower. Every character is held back until its burst is settled, so scanner text never reaches
 * a field and a person's text arrives complete and in order, `endGapMs` late at most.
 */

export interface WedgeOptions {
  /** A burst whose characters average this far apart or closer is machine-typed. */
  maxAverageIntervalMs: number;
  /** Shorter bursts are never scans: people type two or three characters fast too. */
  minLength: number;
  /** Silence this long ends a burst, so a scanner configured without a terminator still scans. */
  endGapMs: number;
  /**
   * Most characters held at once. A longer burst is no scan we accept: it is given back and the
   * rest of it passes until the next quiet gap, so a runaway device cannot swallow the keyboard.
   */
  maxLength: number;
}

/** How much longer than the allowed average key interval a gap must be to end a burst. */
const END_GAP_MARGIN_MS = 20;

export const defaultWedgeOptions: Readonly<WedgeOptions> = {
  maxAverageIntervalMs: 30,
  minLength: 4,
  endGapMs: 50,
  maxLength: 1024,
};

export interface WedgeKey {
  /** `KeyboardEvent.key`: one character, or a named key such as 'Enter', 'Shift', 'Backspace'. */
  key: string;
  /** Milliseconds on one monotonic clock shared by every key and `tick`. */
  at: number;
  /** The event itself proves a person (a Ctrl/Alt/Meta shortcut, auto-repeat, IME): it passes. */
  fromPerson?: boolean;
}

/** What became of keys held earlier: given back to the page, or read as one scan. */
export type Settlement = { kind: 'release'; keys: string[] } | { kind: 'scan'; value: string };

export interface KeyDecision {
  /** Held keys this key settled; apply it before this key's own fate so order is kept. */
  settled: Settlement | null;
  /**
   * This key: `hold` swallowed until its burst settles, `pass` let through now, `swallow`
   * consumed for good (the Enter or Tab that ended a scan).
   */
  key: 'hold' | 'pass' | 'swallow';
}

const TERMINATORS = new Set(['Enter', 'Tab']);
/** Scanners press Shift for capitals in mid-burst; bare modifiers neither end nor join a burst. */
const BARE_MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'AltGraph', 'Meta', 'CapsLock']);

/** A single character, counting an astral-plane character (two UTF-16 units) as one. */
const isPrintable = (key: string): boolean => [...key].length === 1;

export class WedgeDetector {
  readonly options: Readonly<WedgeOptions>;
  private held: string[] = [];
  private firstAt = 0;
  private lastAt = Number.NEGATIVE_INFINITY;
  /** Passing the rest of a burst that outgrew `maxLength`, until the next quiet gap. */
  private overflowing = false;

  constructor(options: Partial<WedgeOptions> = {}) {
    const maxAverageIntervalMs = options.maxAverageIntervalMs ?? defaultWedgeOptions.maxAverageIntervalMs;
    // A gap that ends a burst must be clearly longer than the keys of a scan may be apart: a
    // store that allows slower scanners gets a longer end gap with it.
    const endGapMs = Math.max(defaultWedgeOptions.endGapMs, maxAverageIntervalMs + END_GAP_MARGIN_MS);
    this.options = { ...defaultWedgeOptions, endGapMs, ...options };
    const { minLength, maxLength } = this.options;
    // One character has no interval to judge its speed by.
    if (minLength < 2) throw new RangeError(`minLength must be at least 2, got ${minLength}`);
    if (maxLength < minLength) throw new RangeError(`maxLength ${maxLength} is below minLength ${minLength}`);
  }

  feed(input: WedgeKey): KeyDecision {
    // After a quiet gap the burst ended before this key, whatever this key is.
    const endedByGap = this.tick(input.at);
    const decision = this.decide(input);
    // The gap emptied the burst, so the key itself cannot have settled anything as well.
    return endedByGap ? { ...decision, settled: endedByGap } : decision;
  }

  /** Settles the held keys once `endGapMs` has passed without a character; call it at `deadline`. */
  tick(now: number): Settlement | null {
    return now - this.lastAt >= this.options.endGapMs ? this.endBurst(true) : null;
  }

  /** When `tick` will settle the held keys if no key comes first; null when none are held. */
  get deadline(): number | null {
    return this.held.length > 0 ? this.lastAt + this.options.endGapMs : null;
  }

  /** Whether the held keys would be read as a scan if their burst ended now. */
  get holdsScan(): boolean {
    return this.isMachineTyped(this.held.length);
  }

  /** Gives every held key back now (the listener is going away). */
  releaseHeld(): Settlement | null {
    return this.endBurst(false);
  }

  private decide({ key, at, fromPerson = false }: WedgeKey): KeyDecision {
    if (fromPerson) return { settled: this.endBurst(false), key: 'pass' };
    if (TERMINATORS.has(key)) {
      const settled = this.endBurst(true);
      return { settled, key: settled?.kind === 'scan' ? 'swallow' : 'pass' };
    }
    if (isPrintable(key)) return this.takeCharacter(key, at);
    if (BARE_MODIFIERS.has(key)) return { settled: null, key: 'pass' };
    // Editing keys (Backspace, arrows...) must not overtake held characters, and end the burst.
    return { settled: this.endBurst(false), key: 'pass' };
  }

  private takeCharacter(key: string, at: number): KeyDecision {
    this.lastAt = at;
    if (this.overflowing) return { settled: null, key: 'pass' };
    if (this.held.length >= this.options.maxLength) {
      const settled = this.endBurst(false);
      this.overflowing = true;
      return { settled, key: 'pass' };
    }
    if (this.held.length === 0) this.firstAt = at;
    this.held.push(key);
    return { settled: null, key: 'hold' };
  }

  /** Ends the current burst: a scan if it may be one and was machine-typed, else given back. */
  private endBurst(mayBeScan: boolean): Settlement | null {
    this.overflowing = false;
    const keys = this.held;
    if (keys.length === 0) return null;
    this.held = [];
    return mayBeScan && this.isMachineTyped(keys.length)
      ? { kind: 'scan', value: keys.join('') }
      : { kind: 'release', keys };
  }

  private isMachineTyped(length: number): boolean {
    const { minLength, maxAverageIntervalMs } = this.options;
    return length >= minLength && (this.lastAt - this.firstAt) / (length - 1) <= maxAverageIntervalMs;
  }
}
