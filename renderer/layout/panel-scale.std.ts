/** The shopper screens are drawn for a panel 1080 px on its short side (the common 21.5" to 32" kiosk). */
export const DRAWN_FOR_SHORT_SIDE = 1080;

/**
 * How much smaller than drawn a panel of `width` x `height` shows the screens: a smaller panel
 * (1366x768, 1280x800) gets them whole and in proportion, instead of with its controls cut off;
 * a bigger one gets them as drawn, with more room around.
 */
export function panelScale(width: number, height: number): number {
  const shortSide = Math.min(width, height);
  if (!(shortSide > 0)) return 1;
  return Math.min(1, shortSide / DRAWN_FOR_SHORT_SIDE);
}
