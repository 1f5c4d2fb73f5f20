import { WakeSwallow, type WakeSwallowOptions } from './wake-swallow.std.ts';

/** Every event a touch, click or key is made of; moves and hovers neither wake nor press anything. */
const INPUT_EVENTS = [
  'pointerdown',
  'pointerup',
  'pointercancel',
  'touchstart',
  'touchend',
  'touchcancel',
  'mousedown',
  'mouseup',
  'click',
  'dblclick',
  'auxclick',
  'contextmenu',
  'keydown',
  'keypress',
  'keyup',
] as const;

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
