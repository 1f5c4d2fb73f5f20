import type { Locale } from './config-schema.std.ts';

/**
 * What main itself says, in every language; English is the reference. The renderer's catalogue
 * test (renderer/i18n/messages.test.ts) checks it with the screens' catalogues: every key in
 * every language, the same arguments.
 */
const en = {
  /** Said on a speaker where private data would have been. */
  'speech.private_stand_in': 'details shown on screen',
} as const;

export type MainMessageKey = keyof typeof en;

export const mainMessages: Record<Locale, Readonly<Record<MainMessageKey, string>>> = {
  en,
  nl: { 'speech.private_stand_in': 'gegevens op het scherm' },
  de: { 'speech.private_stand_in': 'Angaben auf dem Bildschirm' },
  fr: { 'speech.private_stand_in': 'informations affichées à l’écran' },
};
