import { z } from 'zod';
import { Locale, LOCALES } from './config-schema.std.ts';
import { mainMessages } from './main-messages.std.ts';

/**
 * What the kiosk says aloud: the renderer writes it, main speaks it. A part marked `private` (an
 * e-mail, credits, a voucher code) is spoken only when the audio is private (a headset); on a
 * speaker main says PRIVATE_STAND_IN in its place, whatever the renderer asked.
 */
export const SpeechPart = z.object({ text: z.string().max(600), private: z.boolean().optional() }).strict();
export type SpeechPart = z.infer<typeof SpeechPart>;

export const Utterance = z.object({ locale: Locale, parts: z.array(SpeechPart).min(1).max(40) }).strict();
export type Utterance = z.infer<typeof Utterance>;

/** Said on a speaker where private data would have been: main's catalogue (common/main-messages.std.ts). */
export const PRIVATE_STAND_IN = Object.fromEntries(LOCALES.map((locale) => [locale, mainMessages[locale]['speech.private_stand_in']])) as Readonly<Record<Locale, string>>;

/** The volume steps a shopper can take from the store's setting, each way. */
export const SpeechVolume = z.object({ volume: z.number().int().min(0).max(200) });
