import { reachBand } from '../../renderer/accessibility/reach-band.std.ts';
import { axeIn, walkEveryLanguage } from '../support/layout-journey.node.ts';
import { ORIENTATIONS, type Size } from '../support/layout.node.ts';

/**
 * Low reach on an upright 32" panel from 900 mm (only its lower 45 % is within 1220 mm of the
 * floor) and a wide one: every control inside the band, both orientations.
 */
const mounting = { screenBottomMm: 900, screenHeightMm: null };
const bandAt = (size: Size) => reachBand(mounting, size.height > size.width);

walkEveryLanguage(
  'layout: low reach puts every control within 380 to 1220 mm of the floor',
  (language) => ({ display: ['low-reach'], set: `low-reach-${language}`, options: { sizes: ORIENTATIONS, bandAt, scrolling: true, axe: axeIn(language) } }),
  { settings: { 'accessibility.screenBottomMm': mounting.screenBottomMm, 'accessibility.screenHeightMm': mounting.screenHeightMm } },
);
