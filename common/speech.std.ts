import { z } from 'zod';
import { Locale, LOCALES } from './config-schema.std.ts';
import { mainMessages } from './main-messages.std.ts';

/**
 * What the kiosk says aloud: the renderer writes it, main speaks it. A part marked `private` (an
 * e-mail, credits, a voucher code) is spoken only when the audio is private (a headset); on a
 * speaker main says PRIVATE_STAND_IN in its place, whatever the renderer asked.
 */
export const SpeechPart = z
  .object({
    text: z.string().max(600),
    private: z.boolean().optional(),
    /** Said in this language's voice, not the utterance's: the welcome's offer of each other language (#33 §7). */
    locale: Locale.optional(),
  })
  .strict();
export type SpeechPart = z.infer<typeof SpeechPart>;

export const Utterance = z.object({ locale: Locale, parts: z.array(SpeechPart).min(1).max(40) }).strict();
export type Utterance = z.infer<typeof Utterance>;

/** An utterance as its voices say it: each run of parts in one language, in order. */
export function languageRuns({ locale, parts }: Utterance): Utterance[] {
  const runs: Utterance[] = [];
  for (const part of parts) {
    const voice = part.locale ?? locale;
    const last = runs.at(-1);
    if (last?.locale === voice) last.parts.push(part);
    else runs.push({ locale: voice, parts: [part] });
  }
  return runs;
}

/** Said on a speaker where private data would have been: main's catalogue (common/main-messages.std.ts). */
export const PRIVATE_STAND_IN = Object.fromEntries(LOCALES.map((locale) => [locale, mainMessages[locale]['speech.private_stand_in']])) as Readonly<Record<Locale, string>>;

/** What a shopper's keys change of the voice, a step at a time: its volume, or its speed (#33). */
export const SpeechSetting = z.enum(['volume', 'rate']);
export type SpeechSetting = z.infer<typeof SpeechSetting>;

/** The new level after a step: a percent of full volume, or of the normal speed. */
export const SpeechLevel = z.object({ percent: z.number().int().min(0).max(400) });
