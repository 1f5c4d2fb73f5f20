/** How long a value must be out of sight before the camera may report it again. */
export const REPEAT_WINDOW_MS = 1500;

/**
 * A camera sees the same code in frame after frame; a shopper holding a card up should produce one
 * scan, not one per frame. A value is reported once, and again only after a decode has missed it
 * `windowMs` or more after its last sighting. Absence is what decodes saw, not the clock alone: when
 * a loaded machine decodes a frame only every few seconds, a card held still is still one scan.
 * Returns `fresh(values, now)`: the values of one decode that should be reported.
 */
export function createRepeatGuard(windowMs = REPEAT_WINDOW_MS): (values: readonly string[], now: number) => string[] {
  const lastSeen = new Map<string, number>();
  return (values, now) => {
    const inSight = new Set(values);
    for (const [seen, at] of lastSeen) if (!inSight.has(seen) && now - at >= windowMs) lastSeen.delete(seen);
    const fresh = [...inSight].filter((value) => !lastSeen.has(value));
    for (const value of inSight) lastSeen.set(value, now);
    return fresh;
  };
}
