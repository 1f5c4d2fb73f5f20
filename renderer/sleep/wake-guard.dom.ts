import { INPUT_EVENTS, WakeSwallow, type WakeSwallowOptions } from './wake-swallow.std.ts';

/**
 * Listens before anything else on the page (window, capture phase: attach it before any other
 * window listener, such as the wedge scanner's) and swallows the input that wakes the sleeping
 * kiosk, whole, so it can never press a button or start a lookup. Returns `detach`.
 */
export function attachWakeGuard(
  target: Window,
  { isSleeping, onWake, ...options }: { isSleeping: () => boolean; onWake: () => void } & WakeSwallowOptions,
): () => void {
  const swallow = new WakeSwallow(options);
  const listener = (event: Event) => {
    const pointerId = 'pointerId' in event ? (event as PointerEvent).pointerId : undefined;
    const verdict = swallow.judge({ type: event.type, pointerId, at: event.timeStamp }, isSleeping());
    if (verdict === 'pass') return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (verdict === 'wake') onWake();
  };
  // Not passive: preventDefault on touchstart is what stops the browser's own mouse events and click.
  for (const type of INPUT_EVENTS) target.addEventListener(type, listener, { capture: true, passive: false });
  return () => {
    for (const type of INPUT_EVENTS) target.removeEventListener(type, listener, { capture: true });
  };
}
