/**
 * Drops a pointer's click that lands on something its press did not start on.
 *
 * A key of the on-screen keyboard acts on release, and the screen it opens can be drawn before the
 * browser sends that press's click (on a busy kiosk, a lookup's answer came first). The click then
 * pressed whatever the new screen had under the finger: Done on the digit pad sits where the home
 * screen's language switch does, and a shopper who typed a card number got the next screen in Dutch.
 * A click from Enter, Space or assistive technology (detail 0) has no press and always passes.
 */
export function dropStrayClicks(target: Window): () => void {
  let pressed: Node | null = null;
  const press = (event: PointerEvent) => {
    pressed = event.target instanceof Node ? event.target : null;
  };
  const forget = () => {
    pressed = null;
  };
  const click = (event: MouseEvent) => {
    const from = pressed;
    pressed = null;
    if (event.detail === 0 || !from || !(event.target instanceof Node)) return;
    if (from.contains(event.target) || event.target.contains(from)) return;
    // Not stopImmediatePropagation: other window listeners (the keyboard's end of a press) still run.
    event.stopPropagation();
    event.preventDefault();
  };
  target.addEventListener('pointerdown', press, { capture: true });
  target.addEventListener('pointercancel', forget, { capture: true });
  target.addEventListener('click', click, { capture: true });
  return () => {
    target.removeEventListener('pointerdown', press, { capture: true });
    target.removeEventListener('pointercancel', forget, { capture: true });
    target.removeEventListener('click', click, { capture: true });
  };
}
