export const RECONNECT_INITIAL_DELAY_MS = 250;
export const RECONNECT_MAX_DELAY_MS = 5000;

/** Back-off before the next attempt: quick for a replug, then no busier than every 5 s. */
export function reconnectDelayMs(failedAttempts: number): number {
  return Math.min(RECONNECT_INITIAL_DELAY_MS * 2 ** failedAttempts, RECONNECT_MAX_DELAY_MS);
}
