/**
 * The band a hand reaches, from a wheelchair or standing (EN 301 549 8.3.2, ADA 308: forward reach
 * between 380 mm and 1220 mm above the floor).
 */
export const REACH_LOWEST_MM = 380;
export const REACH_HIGHEST_MM = 1220;

/** A 32" 16:9 panel's visible height, upright and wide: the kiosk's mounting when none is configured. */
const PANEL_32_INCH_MM = { upright: 708, wide: 398 } as const;

export interface Mounting {
  /** How high above the floor the visible area starts. */
  screenBottomMm: number;
  /** The visible area's height as mounted; null: a 32" panel's. */
  screenHeightMm: number | null;
}

/** Where the reach band lies on the screen: fractions of its height from the top (0) to the bottom (1). */
export interface ReachBand {
  top: number;
  bottom: number;
}

export const WHOLE_SCREEN: ReachBand = { top: 0, bottom: 1 };

/**
 * The part of a screen mounted as `mounting` that lies in the reach band. A screen wholly above
 * or below it gets the edge nearest the band (a sliver of it), never nothing.
 */
export function reachBand({ screenBottomMm, screenHeightMm }: Mounting, upright: boolean): ReachBand {
  const height = screenHeightMm ?? (upright ? PANEL_32_INCH_MM.upright : PANEL_32_INCH_MM.wide);
  const screenTopMm = screenBottomMm + height;
  const fromTop = (mm: number) => Math.min(1, Math.max(0, (screenTopMm - mm) / height));
  const top = fromTop(REACH_HIGHEST_MM);
  const bottom = fromTop(REACH_LOWEST_MM);
  const MIN_SHARE = 0.25;
  if (bottom - top >= MIN_SHARE) return { top, bottom };
  // Mounted too high or too low to reach at all: the quarter of the screen nearest the band.
  return top >= 1 - MIN_SHARE ? { top: 1 - MIN_SHARE, bottom: 1 } : { top: 0, bottom: MIN_SHARE };
}
