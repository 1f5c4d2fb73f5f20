import type { Locale } from '../../common/config-schema.std.ts';

/** What a printed slip says, in the shopper's language; English is the reference. */
const en = {
  'slip.till_text': 'Show this slip at the till',
  'slip.duplicate': 'DUPLICATE',
  'slip.kiosk': 'Kiosk',
  'slip.number': 'No.',
  'slip.card': 'Card',
  'slip.single_use': 'Single use: the cashier keeps this slip',
  'slip.test_title': 'Test print',
  'slip.test_text': 'Accents and symbols: € é è ê ë à ç ô ö ü ß ñ',
} as const;

export type SlipMessageKey = keyof typeof en;

export const slipMessages: Record<Locale, Readonly<Record<SlipMessageKey, string>>> = {
  en,
  nl: {
    'slip.till_text': 'Laat deze bon zien aan de kassa',
    'slip.duplicate': 'DUPLICAAT',
    'slip.kiosk': 'Kiosk',
    'slip.number': 'Nr.',
    'slip.card': 'Kaart',
    'slip.single_use': 'Eenmalig geldig: de kassa houdt deze bon',
    'slip.test_title': 'Testafdruk',
    'slip.test_text': 'Accenten en tekens: € é è ê ë à ç ô ö ü ß ñ',
  },
  de: {
    'slip.till_text': 'Zeigen Sie diesen Beleg an der Kasse',
    'slip.duplicate': 'DUPLIKAT',
    'slip.kiosk': 'Kiosk',
    'slip.number': 'Nr.',
    'slip.card': 'Karte',
    'slip.single_use': 'Einmalig gültig: die Kasse behält diesen Beleg',
    'slip.test_title': 'Testdruck',
    'slip.test_text': 'Umlaute und Zeichen: € é è ê ë à ç ô ö ü ß ñ',
  },
  fr: {
    'slip.till_text': 'Présentez ce ticket en caisse',
    'slip.duplicate': 'DUPLICATA',
    'slip.kiosk': 'Borne',
    'slip.number': 'N°',
    'slip.card': 'Carte',
    'slip.single_use': 'Usage unique : la caisse garde ce ticket',
    'slip.test_title': 'Impression de test',
    'slip.test_text': 'Accents et symboles : € é è ê ë à ç ô ö ü ß ñ',
  },
};
