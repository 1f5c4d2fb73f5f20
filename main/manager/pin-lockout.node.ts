import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Logger } from '../logging/logger.std.ts';
import { writeFileDurably } from '../persistence/durable-file.node.ts';

export const MAX_PIN_FAILURES = 5;
export const LOCKOUT_MS = 5 * 60_000;

const LockoutState = z.object({ failures: z.number().int().min(0), lockedUntil: z.number().int().nullable() });
type LockoutState = z.infer<typeof LockoutState>;

/**
 * Wrong PINs counted in the data folder, so pulling the plug does not reset the count: five in a
 * row lock the pad for five minutes.
 */
export class PinLockout {
  readonly #file: string;
  #state: LockoutState;

  constructor(
    dataDir: string,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.#file = path.join(dataDir, 'manager-lockout.json');
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
    const failures = this.#state.failures + 1;
    if (failures >= MAX_PIN_FAILURES) {
      await this.#write({ failures: 0, lockedUntil: this.now() + LOCKOUT_MS });
      this.logger.warn('manager PIN pad locked after repeated wrong PINs', { minutes: LOCKOUT_MS / 60_000 });
    } else {
      await this.#write({ failures, lockedUntil: this.#state.lockedUntil });
    }
  }

  async recordSuccess() {
    if (this.#state.failures !== 0 || this.#state.lockedUntil !== null) await this.#write({ failures: 0, lockedUntil: null });
  }

  #read(): LockoutState {
    try {
      return LockoutState.parse(JSON.parse(fs.readFileSync(this.#file, 'utf8')));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        // Unreadable counts as locked: tampering with the file must not buy more guesses.
        this.logger.warn('PIN lockout file unreadable; locking the pad', { reason: String(error) });
        return { failures: 0, lockedUntil: this.now() + LOCKOUT_MS };
      }
      return { failures: 0, lockedUntil: null };
    }
  }

  #write(state: LockoutState): Promise<void> {
    this.#state = state;
    return writeFileDurably(this.#file, JSON.stringify(state));
  }
}
