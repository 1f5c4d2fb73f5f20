/** A touch or a key: the shopper is still there, reading. */
const SIGNS_OF_LIFE = ['pointerdown', 'keydown'] as const;

/**
 * A screen with nothing more to do goes on by itself `ms` after it shows, or after the last touch
 * or key on it (a redemption shown, a notice, an apology): the next person in line never finds
 * the last shopper's visit open. Call it while a component initialises; the wait ends with the
 * component, and starts again when `ms` changes.
 */
export function goOnAfter(ms: () => number, goOn: () => void): void {
  $effect(() => {
    const wait = ms();
    let timer = setTimeout(goOn, wait);
    const restart = () => {
      clearTimeout(timer);
      timer = setTimeout(goOn, wait);
    };
    for (const event of SIGNS_OF_LIFE) window.addEventListener(event, restart, { capture: true });
    return () => {
      clearTimeout(timer);
      for (const event of SIGNS_OF_LIFE) window.removeEventListener(event, restart, { capture: true });
    };
  });
}
