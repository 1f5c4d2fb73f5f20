/**
 * The boot cover in index.html (black, the brand) hides the desktop until the kiosk's first
 * screen is painted. It names the configured brand once settings arrive, and goes only after the
 * first screen has had a frame of its own, so nothing between the two is ever seen.
 */
const cover = () => document.getElementById('boot-cover');

export function nameBootCover(brand: string): void {
  const element = cover();
  if (element && brand) element.textContent = brand;
}

/** Two frames: the first paints the screen under the cover, the second may take the cover away. */
export function liftBootCover(): void {
  requestAnimationFrame(() => requestAnimationFrame(() => cover()?.remove()));
}
