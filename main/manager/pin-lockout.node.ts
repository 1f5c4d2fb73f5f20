import { z } from 'zod';
import type { Logger } from '../logging/logger.std.ts';
import { readBoundedFile } from '../../base/bounded-file.node.ts';
import { writeFileDurably } from '../../base/durable-file.node.ts';
import { dataFiles } from '../paths/data-files.node.ts';

export const MAX_PIN_FAILURES = 5;
/** Each lockout in a row lasts longer: 5 min, 15 min, 1 h, then 4 h for every further one. */
export const LOCKOUT_STEPS_MS = [5 * 60_000, 15 * 60_000, 60 * 60_000, 4 * 60 * 60_000] as const;

const LockoutState = z.object({
  failures: z.number().int().min(0),
  lockedUntil: z.number().int().nullable(),
  /** Lockouts since the last right PIN; a file from before escalation has none. */
  lockouts: z.number().int().min(0).default(0),
});
type LockoutState = z.infer<typeof LockoutState>;
/** The state is some 60 bytes: a larger file is no lockout the kiosk wrote. */
const MAX_FILE_BYTES = 4 * 1024;

/** How long the lockout after `previous` earlier ones (since the last right PIN) lasts. */
export function lockoutDuration(previous: number): number {
  return LOCKOUT_STEPS_MS[Math.min(previous, LOCKOUT_STEPS_MS.length - 1)]!;
}

/**
 * Wrong PINs counted in the data folder, so pulling the plug does not reset the count: five in a
 * row lock the pad, for longer each time (LOCKOUT_STEPS_MS), until a right PIN starts over.
 */
export class PinLockout {
  readonly #file: string;
  #state: LockoutState;

  constructor(
    dataDir: string,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.#file = dataFiles(dataDir).managerLockout;
    this.#state = this.#read();
  }

  /** Epoch ms until which the pad is locked, or null. */
  lockedUntil(): number | null {
    const until = this.#state.lockedUntil;
    return until !== null && until > this.now() ? until : null;
  }

  attemptsLeft(): number {
    return MAX_PIN_FAILURES - this.#state.failures;
  }

  /** Resolves once the count is on disk: a power cut right after a wrong PIN must not forget it. */
  async recordFailure() {
    const { lockouts } = this.#state;
    const failures = this.#state.failures + 1;
    if (failures >= MAX_PIN_FAILURES) {
      const duration = lockoutDuration(lockouts);
      await this.#write({ failures: 0, lockedUntil: this.now() + duration, lockouts: lockouts + 1 });
      this.logger.warn('manager PIN pad locked after repeated wrong PINs', { minutes: duration / 60_000, lockout: lockouts + 1 });
    } else {
      await this.#write({ failures, lockedUntil: this.#state.lockedUntil, lockouts });
    }
  }

  async recordSuccess() {
    const { failures, lockedUntil, lockouts } = this.#state;
    if (failures !== 0 || lockedUntil !== null || lockouts !== 0) await this.#write({ failures: 0, lockedUntil: null, lockouts: 0 });
  }

  #read(): LockoutState {
    try {
      const read = readBoundedFile(this.#file, MAX_FILE_BYTES);
      if (read.kind === 'missing') return { failures: 0, lockedUntil: null, lockouts: 0 };
      if (read.kind === 'refused') throw new Error(`the file is ${read.reason}`);
      return LockoutState.parse(JSON.parse(read.text));
    } catch (error) {
      // Unreadable counts as locked: tampering with the file must not buy more guesses.
      this.logger.warn('PIN lockout file unreadable; locking the pad', { reason: String(error) });
      return { failures: 0, lockedUntil: this.now() + lockoutDuration(0), lockouts: 1 };
    }
  }

  #write(state: LockoutState): Promise<void> {
    this.#state = state;
    return writeFileDurably(this.#file, JSON.stringify(state));
  }
}
