import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { defaultConfig, type KioskConfig } from '../../common/config-schema.std.ts';
import { PRIVATE_STAND_IN } from '../../common/speech.std.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { recordingEspeak } from '../../test/support/espeak-recorder.node.ts';
import { until } from '../../test/support/until.std.ts';
import { recordingLogger } from '../../test/support/factories.std.ts';

/** Speech starts within a moment: looked for every 10 ms, for 5 s at most. */
const soon = (condition: () => boolean) => until(condition, { timeoutMs: 5_000, pollMs: 10 });
import { SpeechService } from './speech-service.node.ts';
import { MAX_SPEECH_PROCESSES, STOP_GRACE_MS } from './speech-processes.node.ts';
import { stubbornProgram } from './stubborn-program.test-support.ts';

/** `headset`: what the OS reports (by default nothing plugged in). */
function speechWith(audio: Partial<KioskConfig['accessibility']['audio']> = {}, headset: () => Promise<boolean> = async () => false) {
  const espeak = recordingEspeak();
  const speech = new SpeechService({ audio: () => ({ ...defaultConfig().accessibility.audio, ...audio }), logger: silentLogger, command: espeak.program, headset });
  return { speech, espeak };
}

describe('the kiosk\'s voice (espeak-ng)', () => {
  it('speaks in the voice of the shopper\'s language, the text on stdin', async () => {
    const { speech, espeak } = speechWith();
    for (const [locale, text] of [['nl', 'Scan je klantenkaart'], ['de', 'Kundenkarte scannen'], ['fr', 'Scannez votre carte'], ['en', 'Scan your card']] as const) {
      void speech.say({ locale, parts: [{ text }] });
      await soon(() => espeak.last()?.text === text);
      expect(espeak.last()).toMatchObject({ voice: locale, volume: 100 });
    }
    speech.stop();
  });

  it('says each part marked with another language in that language\'s voice, after what comes before it, and none of it once stopped (#33 §7)', async () => {
    const espeak = recordingEspeak(0);
    const speech = new SpeechService({ audio: () => defaultConfig().accessibility.audio, logger: silentLogger, command: espeak.program });
    const welcome = { locale: 'en' as const, parts: [{ text: 'Speech is on' }, { text: 'Voor Nederlands: kies Taal.', locale: 'nl' as const }, { text: 'Scan your card' }] };
    await speech.say(welcome);
    expect(espeak.utterances().map(({ voice, text }) => ({ voice, text }))).toEqual([
      { voice: 'en', text: 'Speech is on' },
      { voice: 'nl', text: 'Voor Nederlands: kies Taal.' },
      { voice: 'en', text: 'Scan your card' },
    ]);

    const slow = recordingEspeak(5);
    const stopped = new SpeechService({ audio: () => defaultConfig().accessibility.audio, logger: silentLogger, command: slow.program });
    const saying = stopped.say(welcome);
    await soon(() => slow.utterances().length === 1);
    stopped.stop();
    await saying;
    expect(slow.utterances().map(({ voice }) => voice)).toEqual(['en']);
  });

  it('stops what it is saying when new speech starts, and when told to', async () => {
    const { speech, espeak } = speechWith();
    void speech.say({ locale: 'en', parts: [{ text: 'first' }] });
    await soon(() => espeak.utterances().length === 1);
    void speech.say({ locale: 'en', parts: [{ text: 'second' }] });
    await soon(() => espeak.utterances()[0]!.stopped && espeak.utterances().length === 2);
    speech.stop();
    await soon(() => espeak.utterances()[1]!.stopped);
  });

  it('changes the volume and the speed in steps, within bounds, until the visit ends', async () => {
    const { speech, espeak } = speechWith({ volume: 100 });
    void speech.say({ locale: 'en', parts: [{ text: 'Your voucher' }] });
    await soon(() => espeak.utterances().length === 1);
    expect(espeak.last()).toMatchObject({ volume: 100, rate: 160 });
    // In percent: of full volume (amplitude 200), of the normal speed (160 words a minute).
    expect(speech.change('volume', 1)).toBe(60);
    expect(speech.change('volume', 1)).toBe(70);
    expect(speech.change('rate', 1)).toBe(113);
    void speech.say({ locale: 'en', parts: [{ text: 'Your voucher' }] });
    await soon(() => espeak.utterances().length === 2);
    expect(espeak.last()).toMatchObject({ text: 'Your voucher', volume: 140, rate: 180 });
    for (let step = 0; step < 20; step++) speech.change('volume', -1);
    for (let step = 0; step < 20; step++) speech.change('rate', -1);
    expect([speech.volume, speech.rate]).toEqual([10, 100]);
    for (let step = 0; step < 20; step++) speech.change('rate', 1);
    expect(speech.rate).toBe(280);

    speech.endVisit();
    expect([speech.volume, speech.rate]).toEqual([100, 160]);
    void speech.say({ locale: 'en', parts: [{ text: 'Next shopper' }] });
    await soon(() => espeak.last()?.text === 'Next shopper');
    expect(espeak.last()).toMatchObject({ volume: 100, rate: 160 });
    speech.stop();
  });

  it('says private data on a headset only; on a speaker a neutral phrase stands in', async () => {
    const home = { locale: 'en' as const, parts: [{ text: 'Hello' }, { text: 's•••@example.nl', private: true }, { text: 'Credits' }, { text: '1,250', private: true }] };
    const speaker = speechWith({ private: false });
    void speaker.speech.say(home);
    await soon(() => speaker.espeak.utterances().length === 1);
    // The first stand-in of a visit says how to hear what it stands for (#33 §8); later ones do not.
    expect(speaker.espeak.last()!.text).toBe(`Hello. ${PRIVATE_STAND_IN.en}. Credits. ${PRIVATE_STAND_IN.en}. Plug in a headset to hear them.`);
    void speaker.speech.say(home);
    await soon(() => speaker.espeak.utterances().length === 2);
    expect(speaker.espeak.last()!.text).toBe(`Hello. ${PRIVATE_STAND_IN.en}. Credits. ${PRIVATE_STAND_IN.en}`);
    speaker.speech.endVisit();
    void speaker.speech.say({ locale: 'nl', parts: [{ text: '1,250', private: true }] });
    await soon(() => speaker.espeak.utterances().length === 3);
    expect(speaker.espeak.last()!.text).toBe(`${PRIVATE_STAND_IN.nl}. Sluit een koptelefoon aan om ze te horen.`);
    speaker.speech.stop();

    const headset = speechWith({ private: true });
    void headset.speech.say(home);
    await soon(() => headset.espeak.utterances().length === 1);
    expect(headset.espeak.last()!.text).toBe('Hello. s hidden letters @example.nl. Credits. 1,250');
    headset.speech.stop();
  });

  it('says private data when the OS reports a headset plugged in, and stays silent for a say overtaken while it asked', async () => {
    const home = { locale: 'en' as const, parts: [{ text: 'Credits' }, { text: '1,250', private: true }] };
    let answer!: (pluggedIn: boolean) => void;
    const { speech, espeak } = speechWith({ private: false }, () => new Promise((resolve) => (answer = resolve)));
    const first = speech.say(home);
    // The shopper acts while the OS is asked: that say is over before it began.
    speech.stop();
    answer(true);
    await first;
    expect(espeak.utterances()).toEqual([]);

    void speech.say(home);
    answer(true);
    await soon(() => espeak.utterances().length === 1);
    expect(espeak.last()!.text).toBe('Credits. 1,250');
    speech.stop();
  });

  it('asks the OS about a headset once at a time, however many presses come while it is asked (#28 §11)', async () => {
    const home = { locale: 'en' as const, parts: [{ text: 'Credits' }, { text: '1,250', private: true }] };
    let asked = 0;
    let answer!: (pluggedIn: boolean) => void;
    const { speech, espeak } = speechWith({ private: false }, () => {
      asked++;
      return new Promise((resolve) => (answer = resolve));
    });
    for (let press = 0; press < 20; press++) void speech.say(home);
    expect(asked).toBe(1);
    answer(true);
    await soon(() => espeak.utterances().length === 1);
    void speech.say(home);
    expect(asked).toBe(2);
    answer(false);
    await soon(() => espeak.utterances().length === 2);
    speech.stop();
  });

  it('hands espeak-ng the text on stdin only, after its own options, with a voucher name\'s [[…]] no phoneme input (#28 §11)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'espeak-argv-'));
    const program = path.join(dir, 'espeak-ng');
    fs.writeFileSync(program, `#!/bin/sh\nprintf '%s\\n' "$@" > '${dir}/argv'\ncat > '${dir}/stdin'\n`, { mode: 0o755 });
    const speech = new SpeechService({ audio: () => defaultConfig().accessibility.audio, logger: silentLogger, command: program });
    await speech.say({ locale: 'en', parts: [{ text: 'Your voucher' }, { text: "--version [[h@'loU]] <speak>coffee</speak>" }] });
    expect(fs.readFileSync(path.join(dir, 'argv'), 'utf8').split('\n')).toEqual(['-v', 'en', '-a', '100', '-s', '160', '--stdin', '']);
    expect(fs.readFileSync(path.join(dir, 'stdin'), 'utf8')).toBe("Your voucher. --version ((h@'loU)) <speak>coffee</speak>");
  });

  it('kills a stopped espeak-ng that ignores SIGTERM once the grace is over (#28 §11)', async () => {
    const stubborn = stubbornProgram('espeak-ng');
    onTestFinished(stubborn.killAll);
    const speech = new SpeechService({ audio: () => defaultConfig().accessibility.audio, logger: silentLogger, command: stubborn.program });
    void speech.say({ locale: 'en', parts: [{ text: 'first' }] });
    await soon(() => stubborn.started().length === 1);
    const [first] = stubborn.started();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => void vi.useRealTimers());
    speech.stop();
    await vi.advanceTimersByTimeAsync(STOP_GRACE_MS - 1);
    expect(stubborn.alive()).toEqual([first]);
    await vi.advanceTimersByTimeAsync(1);
    vi.useRealTimers();
    await soon(() => stubborn.alive().length === 0);
  });

  it('keeps at most a few espeak-ng alive when each ignores SIGTERM: 40 presses, never more than the cap (#28 §11)', async () => {
    const stubborn = stubbornProgram('espeak-ng');
    onTestFinished(stubborn.killAll);
    // A grace longer than the test: only the cap can end them.
    const speech = new SpeechService({ audio: () => defaultConfig().accessibility.audio, logger: silentLogger, command: stubborn.program, stopGraceMs: 600_000 });
    let mostAlive = 0;
    for (let press = 1; press <= 40; press++) {
      void speech.say({ locale: 'en', parts: [{ text: `press ${press}` }] });
      await soon(() => stubborn.started().length === press);
      mostAlive = Math.max(mostAlive, stubborn.alive().length);
    }
    expect(mostAlive).toBe(MAX_SPEECH_PROCESSES);
    expect(stubborn.alive()).toEqual(stubborn.started().slice(-MAX_SPEECH_PROCESSES));
    speech.stop();
  });

  it('logs once that espeak-ng is missing, and goes on without a voice', async () => {
    const { logger, lines } = recordingLogger();
    const speech = new SpeechService({ audio: () => defaultConfig().accessibility.audio, logger, command: '/nonexistent/espeak-ng' });
    await speech.say({ locale: 'en', parts: [{ text: 'one' }] });
    await speech.say({ locale: 'en', parts: [{ text: 'two' }] });
    expect(lines).toEqual([expect.objectContaining({ level: 'error', fields: { event: 'speech.missing' } })]);
  });
});
