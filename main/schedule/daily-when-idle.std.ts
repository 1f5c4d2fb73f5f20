import { minutesOf } from '../../common/local-time.std.ts';

export interface DailyWhenIdleOptions {
  /** Epoch ms; tests inject their own clock. */
  now: () => number;
  /** The local HH:MM it is due at each day, or null: never. */
  time: () => string | null;
  /** All screens on the attract screen and no voucher lock held (KioskActivity.isIdle). */
  isIdle: () => boolean;
  /** Told once per due time that finds the kiosk busy. */
  onWaiting?: () => void;
}

/**
 * A daily task that waits for an idle kiosk (the nightly restart, the daily Z): once its time of
 * day has passed, and while `pending` says that day's occurrence still wants it, it runs at the
 * first idle moment. Pure: call `update()` on a timer and at every change of activity.
 */
export abstract class DailyWhenIdle {
  #waitingFor: number | null = null;

  constructor(private readonly daily: DailyWhenIdleOptions) {}

  /** Whether the occurrence due at `due` (epoch ms) still wants running. */
  protected abstract pending(due: number): boolean;
  protected abstract run(due: number): void;

  update(): void {
    const time = this.daily.time();
    if (!time) return;
    const due = lastOccurrence(time, this.daily.now());
    if (!this.pending(due)) return;
    if (!this.daily.isIdle()) {
      if (this.#waitingFor !== due) this.daily.onWaiting?.();
      this.#waitingFor = due;
      return;
    }
    this.run(due);
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
