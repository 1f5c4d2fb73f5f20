import type { KioskActivity } from '../activity/kiosk-activity.std.ts';
import type { EventBus } from '../bridge/event-bus.std.ts';
import type { ConfigStore } from '../config/config-store.node.ts';
import type { Logger } from '../logging/logger.std.ts';
import { NightlyRestart } from './nightly-restart.std.ts';
import { ScheduledZ } from './scheduled-z.std.ts';
import { LedgerUnavailable, type Ledger } from '../ledger/ledger.node.ts';
import { SleepSchedule, type SleepReason } from './sleep-schedule.std.ts';

/** What the host does with the display: Electron's power-save blocker; the browser host has none. */
export interface DisplayHost {
  /** true: the display may dim and sleep (the kiosk sleeps); false: keep it on. */
  allowDisplaySleep(allowed: boolean): void;
}

export interface ScheduleParts {
  config: ConfigStore;
  activity: Pick<KioskActivity, 'isIdle' | 'onChange'>;
  events: EventBus;
  /** The serial scanner: its port is closed while the kiosk sleeps. */
  scanner: { pause(): Promise<void>; resume(): Promise<void> };
  display: DisplayHost;
  /** The host's restart: services close first, so every lock is released. */
  restart: () => void;
  /** The redemption ledger, whose shift the daily Z closes (schedule.zReportAt). */
  ledger: Pick<Ledger, 'status' | 'closeShift' | 'prune'>;
  logger: Logger;
  now?: () => number;
  /** How often the clock is looked at besides every change of activity or settings (default 5 s). */
  tickMs?: number;
}

export interface ScheduleService {
  /** Whether the kiosk sleeps now (a renderer that loads asks, so it comes back asleep). */
  asleep(): boolean;
  /** The first touch, key or scan on the sleeping kiosk. */
  wake(): void;
  close(): void;
}

/**
 * The kiosk's own schedule (`schedule.*`): quiet hours, when the idle kiosk sleeps (black screen,
 * display allowed to sleep, serial port closed; the renderer releases the camera), and the
 * nightly restart. The fleet heartbeat is not touched: it keeps running while the kiosk sleeps.
 */
export function startScheduleService(parts: ScheduleParts): ScheduleService {
  const { config, activity, logger } = parts;
  const now = parts.now ?? Date.now;
  const log = logger.child({ part: 'schedule' });
  const sleep = new SleepSchedule({
    now,
    isIdle: () => activity.isIdle(),
    quietHours: () => config.get().schedule.quietHours,
    graceMs: () => config.get().idle.timeoutSeconds * 1000,
    onChange: (asleep, reason) => applySleep(parts, log, asleep, reason),
  });
  const nightly = new NightlyRestart({
    now,
    startedAt: now(),
    time: () => config.get().schedule.nightlyRestart,
    isIdle: () => activity.isIdle(),
    restart: () => {
      log.info('nightly restart');
      parts.restart();
    },
    onWaiting: () => log.info('nightly restart waits for the kiosk to be idle', { event: 'restart.waiting' }),
  });
  const dailyZ = scheduledZ(parts, log, now);
  const update = () => {
    sleep.update();
    nightly.update();
    dailyZ.update();
  };
  const timer = setInterval(update, parts.tickMs ?? 5_000);
  const stopActivity = activity.onChange(update);
  const stopConfig = config.onChange(update);
  update();
  return {
    asleep: () => sleep.asleep,
    wake: () => sleep.wake(),
    close() {
      clearInterval(timer);
      stopActivity();
      stopConfig();
    },
  };
}

/** The daily Z on the kiosk's ledger, its old rows pruned after it; a ledger that cannot take it says so in its own log and health. */
function scheduledZ({ config, activity, ledger }: ScheduleParts, log: Logger, now: () => number): ScheduledZ {
  return new ScheduledZ({
    now,
    time: () => config.get().schedule.zReportAt,
    shiftOpenedAt: () => {
      const { writable, shiftOpenedAt } = ledger.status();
      return writable && shiftOpenedAt ? Date.parse(shiftOpenedAt) : null;
    },
    isIdle: () => activity.isIdle(),
    closeShift: () => {
      try {
        ledger.closeShift();
        ledger.prune();
      } catch (error) {
        if (!(error instanceof LedgerUnavailable)) throw error;
      }
    },
    onWaiting: () => log.info('the daily Z waits for the kiosk to be idle', { event: 'ledger.z_waiting' }),
  });
}

/** Everything that sleeps or wakes with the kiosk, in one place. */
function applySleep(parts: ScheduleParts, log: Logger, asleep: boolean, reason: SleepReason) {
  log.info(asleep ? 'the kiosk sleeps' : 'the kiosk wakes', { event: asleep ? 'kiosk.sleeps' : 'kiosk.wakes', reason });
  parts.events.emit('sleep', { asleep });
  parts.display.allowDisplaySleep(asleep);
  const scanner = asleep ? parts.scanner.pause() : parts.scanner.resume();
  scanner.catch((error: unknown) => log.error('the serial scanner did not follow the sleep state', { error: String(error) }));
}
