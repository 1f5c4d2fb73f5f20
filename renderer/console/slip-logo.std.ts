/**
 * How a chosen image becomes the slip's logo: no larger than the paper prints (never enlarged),
 * and black on white, so the console shows what the printer will.
 */

/** The size that keeps the image's shape within `maxWidth` × `maxHeight`, never larger than it is. */
export function fitWithin(width: number, height: number, maxWidth: number, maxHeight: number): { width: number; height: number } {
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** RGBA dots made black or white by their lightness over white (what a thermal printer does with them). */
export function toBlackAndWhite(rgba: Uint8ClampedArray): void {
  for (let at = 0; at < rgba.length; at += 4) {
    const alpha = rgba[at + 3]! / 255;
    const lightness = (0.299 * rgba[at]! + 0.587 * rgba[at + 1]! + 0.114 * rgba[at + 2]!) * alpha + 255 * (1 - alpha);
    const dot = lightness < 128 ? 0 : 255;
    rgba.set([dot, dot, dot, 255], at);
  }
}
