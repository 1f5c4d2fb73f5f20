import { SHORT_AND_LONG, walkEveryLanguage } from '../support/layout-journey.node.ts';
import { ORIENTATIONS } from '../support/layout.node.ts';

/** Forced colours (Windows high contrast, as Chromium emulates it): every control keeps its outline. */
walkEveryLanguage(
  'layout: forced colours keep every control outlined',
  (language) => ({ forcedColors: true, set: `forced-colors-${language}`, options: { sizes: ORIENTATIONS, outlined: true } }),
  { languages: SHORT_AND_LONG },
);
