import { serialQueue } from '../../base/queue.std.ts';
import type { KioskActivity } from '../activity/kiosk-activity.std.ts';
import type { BridgeConnection } from '../bridge/dispatcher.std.ts';
import type { Logger } from '../logging/logger.std.ts';

export interface VisitInterruptionsOptions {
  activity: KioskActivity;
  /** Ends the visit in main: every held lock settled, as the visit's own end does. */
  endVisit: () => Promise<unknown>;
  logger: Logger;
}

/**
 * A screen that goes away in the middle of a visit (a renderer that crashed, hung or was reloaded;
 * a browser tab that closed) can no longer let go of the vouchers it locked: main settles them,
 * and the next screen to start is told, once, so it can say "sorry, please start again".
 */
export class VisitInterruptions {
  readonly #options: VisitInterruptionsOptions;
  readonly #graceTimers = new Set<ReturnType<typeof setTimeout>>();
  #interrupted = false;
  readonly #settlings = serialQueue();

  constructor(options: VisitInterruptionsOptions) {
    this.#options = options;
  }

  /**
   * The screen on `connection` is gone. If it showed a visit, the visit ends: at once, or after
   * `graceMs` (a browser tab's socket; the page may just be reloading), or as soon as a screen
   * starts, whichever comes first.
   */
  screenGone(connection: BridgeConnection, { graceMs = 0 } = {}): void {
    const shown = this.#options.activity.screenOf(connection);
    this.#options.activity.forget(connection);
    if (shown !== 'visit') return;
    if (graceMs <= 0) return this.#interrupt();
    const timer = setTimeout(() => {
      this.#graceTimers.delete(timer);
      this.#interrupt();
    }, graceMs);
    this.#graceTimers.add(timer);
  }

  /**
   * A screen starts: whether a visit was cut short since the last one asked (told once), answered
   * only once that visit's locks are settled, so the new screen never meets them.
   */
  async takeInterrupted(): Promise<boolean> {
    // A screen starting is the reloaded page, or another one: the gone screen is not coming back.
    for (const timer of this.#graceTimers) {
      clearTimeout(timer);
      this.#interrupt();
    }
    this.#graceTimers.clear();
    await this.#settlings.idle();
    const interrupted = this.#interrupted;
    this.#interrupted = false;
    return interrupted;
  }

  close(): void {
    for (const timer of this.#graceTimers) clearTimeout(timer);
    this.#graceTimers.clear();
  }

  #interrupt(): void {
    const { endVisit, logger } = this.#options;
    this.#interrupted = true;
    logger.warn('a screen went away during a visit; ending the visit and settling its locks');
    void this.#settlings
      .run(() => endVisit())
      .catch((error: unknown) => logger.error('settling an interrupted visit failed', { error: String(error) }));
  }
}
