import { DailyWhenIdle, type DailyWhenIdleOptions } from './daily-when-idle.std.ts';

export interface NightlyRestartOptions extends DailyWhenIdleOptions {
  /** When this process started (epoch ms): a restart time it started after is not its to run. */
  startedAt: number;
  /** The host's restart (services close first, so every lock is released). */
  restart: () => void;
}

/**
 * The daily restart (`schedule.nightlyRestart`): at the configured local time, or at the first idle
 * moment after it. It runs once per scheduled time, and only for a time this process has lived
 * through: a kiosk that comes back from it (even within the same minute), or that starts later in
 * the day, does not restart again until tomorrow.
 */
export class NightlyRestart extends DailyWhenIdle {
  /** The scheduled time (epoch ms) last run. */
  #ran: number | null = null;

  constructor(private readonly options: NightlyRestartOptions) {
    super(options);
  }

  protected pending(due: number): boolean {
    return due > this.options.startedAt && due !== this.#ran;
  }

  protected run(due: number): void {
    this.#ran = due;
    this.options.restart();
  }
}
