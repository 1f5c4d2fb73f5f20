import type { Locale } from '../../preload/config-schema.std.ts';

/** English is the reference: every other language must have exactly its keys (a test checks). */
const en = {
  'language.name': 'English',
  'language.choose': 'Choose your language',
  'demo.badge': 'Demo',
  'demo.explain': 'Demo mode: sample data, nothing is charged',
  'attract.title': 'Welcome',
  'attract.scan.hand_scanner': 'Scan your loyalty card',
  'attract.scan.hand_scanner.hint': 'Hold the barcode under the scanner',
  'attract.scan.camera': 'Show your loyalty card',
  'attract.scan.camera.hint': 'Hold the barcode or QR code up to the camera',
  'attract.vouchers': 'Got a voucher? Scan it the same way.',
  'attract.email': 'Use my e-mail address',
  'attract.join': 'Join now',
  'attract.starting': 'Starting…',
  'error.unavailable': 'This kiosk is out of service. Please ask a member of staff.',
} as const;

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;

const nl: Messages = {
  'language.name': 'Nederlands',
  'language.choose': 'Kies je taal',
  'demo.badge': 'Demo',
  'demo.explain': 'Demomodus: voorbeeldgegevens, er wordt niets afgeschreven',
  'attract.title': 'Welkom',
  'attract.scan.hand_scanner': 'Scan je klantenkaart',
  'attract.scan.hand_scanner.hint': 'Houd de barcode onder de scanner',
  'attract.scan.camera': 'Laat je klantenkaart zien',
  'attract.scan.camera.hint': 'Houd de barcode of QR-code voor de camera',
  'attract.vouchers': 'Heb je een voucher? Scan die op dezelfde manier.',
  'attract.email': 'Gebruik mijn e-mailadres',
  'attract.join': 'Word lid',
  'attract.starting': 'Bezig met starten…',
  'error.unavailable': 'Deze kiosk is buiten gebruik. Vraag een medewerker om hulp.',
};

const de: Messages = {
  'language.name': 'Deutsch',
  'language.choose': 'Sprache wählen',
  'demo.badge': 'Demo',
  'demo.explain': 'Demomodus: Beispieldaten, es wird nichts abgebucht',
  'attract.title': 'Willkommen',
  'attract.scan.hand_scanner': 'Scannen Sie Ihre Kundenkarte',
  'attract.scan.hand_scanner.hint': 'Halten Sie den Barcode unter den Scanner',
  'attract.scan.camera': 'Zeigen Sie Ihre Kundenkarte',
  'attract.scan.camera.hint': 'Halten Sie Barcode oder QR-Code vor die Kamera',
  'attract.vouchers': 'Einen Gutschein? Scannen Sie ihn genauso.',
  'attract.email': 'Mit meiner E-Mail-Adresse',
  'attract.join': 'Jetzt Mitglied werden',
  'attract.starting': 'Wird gestartet…',
  'error.unavailable': 'Dieser Kiosk ist außer Betrieb. Bitte wenden Sie sich an das Personal.',
};

const fr: Messages = {
  'language.name': 'Français',
  'language.choose': 'Choisissez votre langue',
  'demo.badge': 'Démo',
  'demo.explain': 'Mode démo : données d’exemple, rien n’est débité',
  'attract.title': 'Bienvenue',
  'attract.scan.hand_scanner': 'Scannez votre carte de fidélité',
  'attract.scan.hand_scanner.hint': 'Placez le code-barres sous le scanner',
  'attract.scan.camera': 'Montrez votre carte de fidélité',
  'attract.scan.camera.hint': 'Présentez le code-barres ou le QR code à la caméra',
  'attract.vouchers': 'Un bon de réduction ? Scannez-le de la même façon.',
  'attract.email': 'Utiliser mon adresse e-mail',
  'attract.join': 'Devenir membre',
  'attract.starting': 'Démarrage…',
  'error.unavailable': 'Cette borne est hors service. Veuillez vous adresser au personnel.',
};

export const messages: Record<Locale, Messages> = { en, nl, de, fr };
