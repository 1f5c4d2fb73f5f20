/**
 * A screen with nothing more to do goes on by itself after `ms` (a redemption shown, an apology):
 * the next person in line never finds the last shopper's visit open. Call it while a component
 * initialises; the wait ends with the component, and starts again when `ms` changes.
 */
export function goOnAfter(ms: () => number, goOn: () => void): void {
  $effect(() => {
    const timer = setTimeout(goOn, ms());
    return () => clearTimeout(timer);
  });
}
