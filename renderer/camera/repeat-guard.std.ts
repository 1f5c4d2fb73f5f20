/** How long a value must be out of sight before the camera may report it again. */
export const REPEAT_WINDOW_MS = 1500;

/**
 * A camera sees the same code in frame after frame; a shopper holding a card up should produce one
 * scan, not one per frame. The window slides: every sighting extends it, so a code held still is
 * reported once, and again only after it has been gone for `windowMs`.
 * Returns `isNew(value, now)`: true when the value should be reported.
 */
export function createRepeatGuard(windowMs = REPEAT_WINDOW_MS): (value: string, now: number) => boolean {
  const lastSeen = new Map<string, number>();
  return (value, now) => {
    for (const [seen, at] of lastSeen) if (now - at >= windowMs) lastSeen.delete(seen);
    const isNew = !lastSeen.has(value);
    lastSeen.set(value, now);
    return isNew;
  };
}
