import type { Locale } from './config-schema.std.ts';

/**
 * What main itself says, in every language; English is the reference. The renderer's catalogue
 * test (renderer/i18n/messages.test.ts) checks it with the screens' catalogues: every key in
 * every language, the same arguments.
 */
const en = {
  /** Said on a speaker where private data would have been. */
  'speech.private_stand_in': 'details shown on screen',
  /** Said once a visit after the first stand-in: how to hear what it stood for (#33 §8). */
  'speech.private_hint': 'Plug in a headset to hear them.',
  /** Said for the dots that hide part of a text (s•••@example.nl), which espeak-ng would skip (#33 §9). */
  'speech.masked': 'hidden letters',
  /** Said aloud when a shopper calls staff, speech mode or not: the shopper hears it is done, and staff nearby hear the call (#33 §11). */
  'staff.callout': 'Staff have been called to this kiosk. Someone will come to help you.',
} as const;

export type MainMessageKey = keyof typeof en;

export const mainMessages: Record<Locale, Readonly<Record<MainMessageKey, string>>> = {
  en,
  nl: {
    'speech.private_stand_in': 'gegevens op het scherm',
    'speech.private_hint': 'Sluit een koptelefoon aan om ze te horen.',
    'speech.masked': 'verborgen letters',
    'staff.callout': 'Er is een medewerker naar deze kiosk geroepen. Er komt iemand om je te helpen.',
  },
  de: {
    'speech.private_stand_in': 'Angaben auf dem Bildschirm',
    'speech.private_hint': 'Schließen Sie einen Kopfhörer an, um sie zu hören.',
    'speech.masked': 'verborgene Zeichen',
    'staff.callout': 'Ein Mitarbeiter wurde zu diesem Kiosk gerufen. Gleich hilft Ihnen jemand.',
  },
  fr: {
    'speech.private_stand_in': 'informations affichées à l’écran',
    'speech.private_hint': 'Branchez un casque pour les entendre.',
    'speech.masked': 'caractères masqués',
    'staff.callout': 'Un membre du personnel a été appelé à cette borne. Quelqu’un va venir vous aider.',
  },
};
