import { describe, expect, it } from 'vitest';
import { PRIVATE_STAND_IN } from '../../common/speech.std.ts';
import { spokenText } from './spoken-text.std.ts';

describe('spoken text', () => {
  const home = {
    locale: 'nl' as const,
    parts: [{ text: 'Welkom' }, { text: 's•••@example.nl', private: true }, { text: 'Punten' }, { text: '1.250', private: true }, { text: 'VRIJ-KOFFIE-7', private: true }],
  };

  it('says private parts on a headset', () => {
    expect(spokenText(home, true)).toBe('Welkom. s verborgen letters @example.nl. Punten. 1.250. VRIJ-KOFFIE-7');
  });

  it('says the dots that hide part of a text as hidden, in the language: never as if nothing were missing (#33 §9)', () => {
    expect(spokenText({ locale: 'en', parts: [{ text: 'Welcome back, s•••@example.nl' }] }, true)).toBe('Welcome back, s hidden letters @example.nl');
    expect(spokenText({ locale: 'de', parts: [{ text: '•••• 4321' }] }, true)).toBe('verborgene Zeichen 4321');
  });

  it('says a neutral phrase in the language for each run of private parts on a speaker, never the data', () => {
    const said = spokenText(home, false);
    expect(said).toBe(`Welkom. ${PRIVATE_STAND_IN.nl}. Punten. ${PRIVATE_STAND_IN.nl}`);
    expect(said).not.toMatch(/example|1\.250|KOFFIE/);
  });

  it('pauses between parts, but adds no stop after punctuation already there', () => {
    expect(spokenText({ locale: 'en', parts: [{ text: 'Welcome back,' }, { text: 'Ann' }, { text: 'Ready?' }, { text: 'Go' }] }, true)).toBe('Welcome back, Ann. Ready? Go');
  });

  it('leaves out control characters and empty parts', () => {
    expect(spokenText({ locale: 'en', parts: [{ text: 'a\u0007\nb' }, { text: '  ' }, { text: 'c\u0001400S\u0085d' }] }, false)).toBe('a b. c 400S d');
  });

  it('leaves no bracket to open espeak-ng\'s phoneme input: a voucher name says what it shows (#28 §11)', () => {
    expect(spokenText({ locale: 'en', parts: [{ text: "Free [[h@'loU]] coffee" }, { text: '[\u00ad[x]]' }] }, false)).toBe("Free ((h@'loU)) coffee. (\u00ad(x))");
  });
});
