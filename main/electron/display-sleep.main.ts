import type { PowerSaveBlocker } from 'electron';
import type { DisplayHost } from '../schedule/schedule-service.node.ts';

/**
 * A kiosk display never dims or sleeps while the app runs, except while the kiosk itself sleeps
 * (quiet hours): the power-save blocker is held from the start, stopped then, and taken again on wake.
 */
export function displaySleepControl(blocker: Pick<PowerSaveBlocker, 'start' | 'stop'>): DisplayHost {
  let blocking: number | null = blocker.start('prevent-display-sleep');
  return {
    allowDisplaySleep(allowed) {
      if (allowed && blocking !== null) {
        blocker.stop(blocking);
        blocking = null;
      } else if (!allowed && blocking === null) {
        blocking = blocker.start('prevent-display-sleep');
      }
    },
  };
}
