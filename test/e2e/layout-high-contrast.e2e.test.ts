import { axeIn, walkEveryLanguage } from '../support/layout-journey.node.ts';
import { ORIENTATIONS } from '../support/layout.node.ts';

/** High contrast (outlined controls), both orientations: every screen fits in every language, and axe finds nothing serious. */
walkEveryLanguage('layout: high contrast fits every screen', (language) => ({
  display: ['high-contrast'],
  set: `high-contrast-${language}`,
  options: { sizes: ORIENTATIONS, axe: axeIn(language) },
}));
