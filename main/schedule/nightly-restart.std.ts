import { minutesOf } from '../../common/local-time.std.ts';

export interface NightlyRestartOptions {
  /** Epoch ms; tests inject their own clock. */
  now: () => number;
  /** When this process started (epoch ms): a restart time it started after is not its to run. */
  startedAt: number;
  /** `schedule.nightlyRestart` (local HH:MM), or null: none. */
  time: () => string | null;
  /** All screens on the attract screen and no voucher lock held (KioskActivity.isIdle). */
  isIdle: () => boolean;
  /** The host's restart (services close first, so every lock is released). */
  restart: () => void;
  /** Told once per restart time that finds the kiosk busy. */
  onWaiting?: () => void;
}

/**
 * The daily restart: at the configured local time, or at the first idle moment after it. It runs
 * once per scheduled time, and only for a time this process has lived through: a kiosk that comes
 * back from it (even within the same minute), or that starts later in the day, does not restart
 * again until tomorrow. Pure: call `update()` on a timer and at every change of activity.
 */
export class NightlyRestart {
  /** The scheduled time (epoch ms) last run or announced as waiting. */
  #ran: number | null = null;
  #waitingFor: number | null = null;

  constructor(private readonly options: NightlyRestartOptions) {}

  update(): void {
    const time = this.options.time();
    if (!time) return;
    const due = lastOccurrence(time, this.options.now());
    if (due <= this.options.startedAt || due === this.#ran) return;
    if (!this.options.isIdle()) {
      if (this.#waitingFor !== due) this.options.onWaiting?.();
      this.#waitingFor = due;
      return;
    }
    this.#ran = due;
    this.options.restart();
  }
}

/** The latest local `time` (HH:MM) at or before `now`: today's, or yesterday's if today's is still ahead. */
export function lastOccurrence(time: string, now: number): number {
  const minutes = minutesOf(time);
  const today = new Date(now);
  today.setHours(Math.floor(minutes / 60), minutes % 60, 0, 0);
  if (today.getTime() <= now) return today.getTime();
  const yesterday = new Date(today);
  yesterday.setDate(today.getDate() - 1);
  return yesterday.getTime();
}
