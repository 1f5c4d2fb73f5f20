import { DailyWhenIdle, type DailyWhenIdleOptions } from './daily-when-idle.std.ts';

export interface ScheduledZOptions extends DailyWhenIdleOptions {
  /** When the open shift opened (epoch ms); null when the ledger has none to close. */
  shiftOpenedAt: () => number | null;
  /** Closes the shift with its Z. */
  closeShift: () => void;
}

/**
 * The daily Z (`schedule.zReportAt`): once the Z time has passed, a shift that opened before it is
 * closed at the first idle moment. The ledger remembers when its shift opened, so a kiosk that was
 * off at the Z time closes the shift when it is next idle, and one closed by hand after the Z time
 * waits for the next day's.
 */
export class ScheduledZ extends DailyWhenIdle {
  constructor(private readonly options: ScheduledZOptions) {
    super(options);
  }

  protected pending(due: number): boolean {
    const opened = this.options.shiftOpenedAt();
    return opened !== null && opened < due;
  }

  protected run(): void {
    this.options.closeShift();
  }
}
