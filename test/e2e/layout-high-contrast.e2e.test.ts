import { SHORT_AND_LONG, walkEveryLanguage } from '../support/layout-journey.node.ts';
import { ORIENTATIONS } from '../support/layout.node.ts';

/**
 * High contrast, both orientations: every screen fits, and axe finds nothing serious. It changes
 * colours only: the layout's words are walked in every language by layout-walk.
 */
walkEveryLanguage(
  'layout: high contrast fits every screen',
  (language) => ({ display: ['high-contrast'], set: `high-contrast-${language}`, options: { sizes: ORIENTATIONS, axe: true } }),
  { languages: SHORT_AND_LONG },
);
