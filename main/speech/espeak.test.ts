import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../common/config-schema.std.ts';
import { startEspeak } from './espeak.node.ts';
import { spokenText } from './spoken-text.std.ts';

/** What each voice is asked to say: the same few words in each language. */
const SENTENCES = {
  en: 'Your voucher for a free coffee has been redeemed.',
  nl: 'Je voucher voor een gratis koffie is ingewisseld.',
  de: 'Ihr Gutschein für einen kostenlosen Kaffee wurde eingelöst.',
  fr: 'Votre bon pour un café gratuit a été utilisé.',
} as const;

/** A PCM WAV's format and length, from its RIFF header. */
function readWav(file: string) {
  const bytes = fs.readFileSync(file);
  expect(bytes.toString('ascii', 0, 4)).toBe('RIFF');
  expect(bytes.toString('ascii', 8, 12)).toBe('WAVE');
  const channels = bytes.readUInt16LE(22);
  const sampleRate = bytes.readUInt32LE(24);
  const bitsPerSample = bytes.readUInt16LE(34);
  const samples = bytes.subarray(44);
  let loudest = 0;
  for (let at = 0; at + 1 < samples.length; at += 2) loudest = Math.max(loudest, Math.abs(samples.readInt16LE(at)));
  return { channels, sampleRate, bitsPerSample, seconds: samples.length / (sampleRate * channels * (bitsPerSample / 8)), loudest };
}

describe('the real espeak-ng', () => {
  it.each(LOCALES)('speaks %s: audio of a plausible length, not silence', async (locale) => {
    const wavFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'espeak-')), `${locale}.wav`);
    const child = startEspeak(SENTENCES[locale], { locale, volume: 100, wavFile });
    const [code] = (await once(child, 'close')) as [number | null];
    expect(code).toBe(0);
    const wav = readWav(wavFile);
    expect(wav).toMatchObject({ channels: 1, bitsPerSample: 16 });
    expect(wav.sampleRate).toBeGreaterThanOrEqual(16_000);
    // About ten words at 160 a minute: two to six seconds of speech.
    expect(wav.seconds).toBeGreaterThan(2);
    expect(wav.seconds).toBeLessThan(6);
    expect(wav.loudest).toBeGreaterThan(3_000);
  });

  it('says a voucher name\'s [[…]] as the letters shown, never as phonemes (#28 §11)', () => {
    /** What espeak-ng would say of `text` (-x: its phoneme mnemonics), read from stdin as the kiosk hands it over. */
    const phonemes = (text: string) => execFileSync('espeak-ng', ['-q', '-x', '-v', 'en', '--stdin'], { input: text, encoding: 'utf8' }).trim();
    const hello = phonemes('hello');
    // As given, the brackets make espeak-ng say "hello".
    expect(phonemes("[[h@'loU]]")).toBe(hello);
    for (const name of ["Free [[h@'loU]] coffee", "Free [\u00ad[h@'loU]] coffee"]) {
      const said = phonemes(spokenText({ locale: 'en', parts: [{ text: name }] }, false));
      expect(said).not.toContain(hello);
      // The letter h, spelt out: the characters, read as text.
      expect(said).toContain("'eItS");
    }
  });
});
