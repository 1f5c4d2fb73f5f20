import { spawn, type ChildProcess } from 'node:child_process';
import type { Locale } from '../../common/config-schema.std.ts';

/** espeak-ng's voice for each of the kiosk's languages (Debian's espeak-ng-data has them all). */
export const ESPEAK_VOICES: Readonly<Record<Locale, string>> = { en: 'en', nl: 'nl', de: 'de', fr: 'fr' };

/** Words per minute: a little slower than espeak-ng's 175, for a shopper hearing it once in a shop. */
export const NORMAL_WORDS_PER_MINUTE = 160;

export interface EspeakOptions {
  locale: Locale;
  /** 0 to 200, espeak-ng's amplitude. */
  volume: number;
  /** Words per minute (default NORMAL_WORDS_PER_MINUTE). */
  rate?: number;
  /** The program (default `espeak-ng`, found on PATH). */
  command?: string;
  /** Writes the speech to this WAV file instead of the sound card (a check of the voices). */
  wavFile?: string;
}

/**
 * Starts espeak-ng (from PATH) saying `text`, to the sound card. The text goes on stdin, never on
 * the command line, where any process on the machine could read it.
 */
export function startEspeak(text: string, { locale, volume, rate = NORMAL_WORDS_PER_MINUTE, command = 'espeak-ng', wavFile }: EspeakOptions): ChildProcess {
  const output = wavFile ? ['-w', wavFile] : [];
  const child = spawn(command, ['-v', ESPEAK_VOICES[locale], '-a', String(volume), '-s', String(rate), ...output, '--stdin'], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(text);
  return child;
}
