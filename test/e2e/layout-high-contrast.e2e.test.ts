import { axeIn, walkEveryLanguage } from '../support/layout-journey.node.ts';
import { ORIENTATIONS } from '../support/layout.node.ts';

/** High contrast, both orientations: every screen fits, and axe finds nothing serious. */
walkEveryLanguage('layout: high contrast fits every screen', (language) => ({
  display: ['high-contrast'],
  set: `high-contrast-${language}`,
  options: { sizes: ORIENTATIONS, axe: axeIn(language) },
}));
