/** The longest a kiosk waits between two tries to reach its broker. */
export const MAX_RECONNECT_MS = 60_000;

/**
 * How long to wait before reconnect number `attempt` (0: the first after losing the broker):
 * anywhere in a window that starts at `baseMs` and doubles with each failed try, up to a minute
 * ("full jitter"). After a broker restart the fleet comes back spread over the first window,
 * not all in the same second.
 */
export function reconnectWaitMs(attempt: number, baseMs: number, random: () => number): number {
  const window = Math.min(MAX_RECONNECT_MS, baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * window);
}
