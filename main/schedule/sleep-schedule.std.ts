import { isWithinWeeklyRanges, type Weekday } from '../../common/local-time.std.ts';

export type WeeklyRanges = Partial<Record<Weekday, string | null>>;

/** Why the kiosk fell asleep or woke: logged, so staff can tell a wake by touch from the end of quiet hours. */
export type SleepReason = 'quiet hours' | 'quiet hours ended' | 'woken' | 'in use';

export interface SleepScheduleOptions {
  /** Epoch ms; tests inject their own clock. */
  now: () => number;
  /** All screens on the attract screen and no voucher lock held (KioskActivity.isIdle). */
  isIdle: () => boolean;
  /** `schedule.quietHours`, read at every update so a changed setting applies at once. */
  quietHours: () => WeeklyRanges;
  /** How long the kiosk must sit idle before it sleeps (the idle timeout: a shopper who just left gets no black screen in the face). */
  graceMs: () => number;
  onChange: (asleep: boolean, reason: SleepReason) => void;
}

/**
 * Quiet hours: inside today's range, once the kiosk has been idle for the grace time, it sleeps;
 * a wake (the first touch, key or scan) keeps it awake until it has been idle that long again,
 * and the end of quiet hours (or a screen in use) wakes it. Pure: call `update()` on a timer
 * and at every change of activity or settings.
 */
export class SleepSchedule {
  #asleep = false;
  #idleSince: number | null = null;

  constructor(private readonly options: SleepScheduleOptions) {}

  get asleep(): boolean {
    return this.#asleep;
  }

  update(): void {
    const now = this.options.now();
    const idle = this.options.isIdle();
    this.#idleSince = idle ? (this.#idleSince ?? now) : null;
    const quiet = isWithinWeeklyRanges(this.options.quietHours(), new Date(now));
    if (this.#asleep) {
      if (!quiet) this.#set(false, 'quiet hours ended');
      else if (!idle) this.#set(false, 'in use');
    } else if (quiet && this.#idleSince !== null && now - this.#idleSince >= this.options.graceMs()) {
      this.#set(true, 'quiet hours');
    }
  }

  /** Someone touched the sleeping kiosk: it stays awake until it has been idle for the grace time again. */
  wake(): void {
    if (!this.#asleep) return;
    this.#idleSince = this.options.now();
    this.#set(false, 'woken');
  }

  #set(asleep: boolean, reason: SleepReason) {
    this.#asleep = asleep;
    this.options.onChange(asleep, reason);
  }
}
