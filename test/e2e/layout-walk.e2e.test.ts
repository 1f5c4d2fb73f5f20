import { walkEveryLanguage } from '../support/layout-journey.node.ts';

/**
 * Every shopper screen at every kiosk size (LAYOUT_SIZES), in each language: every control lies
 * wholly inside the screen and is not covered. The screenshots land in test-results/layout/<language>.
 */
walkEveryLanguage('layout: every shopper screen fits every kiosk', (language) => ({ set: language }));
