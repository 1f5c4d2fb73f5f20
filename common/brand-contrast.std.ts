/** The least WCAG AA contrast for text: the brand colour carries white text, and is text on white. */
export const BRAND_MIN_CONTRAST = 4.5;

/** WCAG contrast of white on `hex` (#rrggbb), from 1 (white) to 21 (black). */
export function contrastWithWhite(hex: string): number {
  const channels = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (luminance + 0.05);
}
