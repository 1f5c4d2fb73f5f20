import { axeIn, walkEveryLanguage } from '../support/layout-journey.node.ts';
import { ORIENTATIONS } from '../support/layout.node.ts';

/** Large text (1.5x), both orientations: nothing cut off or covered; a control below the fold scrolls into view whole. */
walkEveryLanguage('layout: large text fits every screen', (language) => ({
  display: ['large-text'],
  set: `large-text-${language}`,
  options: { sizes: ORIENTATIONS, scrolling: true, axe: axeIn(language) },
}));
