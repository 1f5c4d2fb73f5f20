import { lastOccurrence } from './nightly-restart.std.ts';

export interface ScheduledZOptions {
  /** Epoch ms; tests inject their own clock. */
  now: () => number;
  /** `schedule.zReportAt` (local HH:MM), or null: shifts close by hand only. */
  time: () => string | null;
  /** When the open shift opened (epoch ms); null when the ledger has none to close. */
  shiftOpenedAt: () => number | null;
  /** No visit on any screen and no voucher lock held (KioskActivity.isIdle), as for the nightly restart. */
  isIdle: () => boolean;
  /** Closes the shift with its Z. */
  closeShift: () => void;
  /** Told once per Z time that finds the kiosk busy. */
  onWaiting?: () => void;
}

/**
 * The daily Z: once the Z time has passed, a shift that opened before it is closed at the first
 * idle moment. The ledger remembers when its shift opened, so a kiosk that was off at the Z time
 * closes the shift when it is next idle, and one closed by hand after the Z time waits for the
 * next day's. Pure: call `update()` on a timer and at every change of activity.
 */
export class ScheduledZ {
  #waitingFor: number | null = null;

  constructor(private readonly options: ScheduledZOptions) {}

  update(): void {
    const time = this.options.time();
    const opened = this.options.shiftOpenedAt();
    if (!time || opened === null) return;
    const due = lastOccurrence(time, this.options.now());
    if (opened >= due) return;
    if (!this.options.isIdle()) {
      if (this.#waitingFor !== due) this.options.onWaiting?.();
      this.#waitingFor = due;
      return;
    }
    this.options.closeShift();
  }
}
