import { describe, expect, it } from 'vitest';
import { kioskSuite } from '../support/kiosk-journey.node.ts';
import { LAYOUT_KIOSK_SETTINGS, LAYOUT_LANGUAGES, walkShopperScreens } from '../support/layout-journey.node.ts';
import { ORIENTATIONS, type Size } from '../support/layout.node.ts';
import { reachBand } from '../../renderer/accessibility/reach-band.std.ts';

/**
 * The shopper's display choices, on every shopper screen in both orientations and every language:
 * nothing cut off, covered or out of reach of scrolling, and axe at 0 serious or critical. The
 * screenshots land in test-results/layout/<mode>-<language>.
 */
describe('layout: large text (1.5x) fits every screen', () => {
  const suite = kioskSuite(LAYOUT_KIOSK_SETTINGS);

  it.each(LAYOUT_LANGUAGES)('in %s', async (language) => {
    const options = { sizes: ORIENTATIONS, scrolling: true, axe: true };
    expect(await walkShopperScreens(suite.browser, suite.kiosk, { language, display: ['large-text'], set: `large-text-${language}`, options })).toEqual([]);
  });
});

describe('layout: high contrast fits every screen', () => {
  const suite = kioskSuite(LAYOUT_KIOSK_SETTINGS);

  it.each(LAYOUT_LANGUAGES)('in %s', async (language) => {
    const options = { sizes: ORIENTATIONS, axe: true };
    expect(await walkShopperScreens(suite.browser, suite.kiosk, { language, display: ['high-contrast'], set: `high-contrast-${language}`, options })).toEqual([]);
  });
});

describe('layout: forced colours (Windows high contrast) keep every control outlined', () => {
  const suite = kioskSuite(LAYOUT_KIOSK_SETTINGS);

  it.each(['en', 'de'] as const)('in %s', async (language) => {
    const options = { sizes: ORIENTATIONS, outlined: true };
    expect(await walkShopperScreens(suite.browser, suite.kiosk, { language, forcedColors: true, set: `forced-colors-${language}`, options })).toEqual([]);
  });
});

describe('layout: low reach puts every control within 380 to 1220 mm of the floor', () => {
  // An upright 32" panel from 900 mm: only its lower 45 % is within reach. A wide one from 1000 mm.
  const mounting = { 'accessibility.screenBottomMm': 900, 'accessibility.screenHeightMm': null };
  const suite = kioskSuite({ ...LAYOUT_KIOSK_SETTINGS, ...mounting });
  const bandAt = (size: Size) => reachBand({ screenBottomMm: 900, screenHeightMm: null }, size.height > size.width);

  it.each(LAYOUT_LANGUAGES)('in %s', async (language) => {
    expect(bandAt(ORIENTATIONS[0]!).top).toBeGreaterThan(0.5);
    const options = { sizes: ORIENTATIONS, bandAt, scrolling: true, axe: true };
    expect(await walkShopperScreens(suite.browser, suite.kiosk, { language, display: ['low-reach'], set: `low-reach-${language}`, options })).toEqual([]);
  });
});
