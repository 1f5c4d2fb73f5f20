import { describe, expect, it, onTestFinished } from 'vitest';
import { headsetPluggedIn } from './headset.node.ts';
import { headphonesInUse } from './headset.std.ts';
import { stubbornProgram } from './stubborn-program.test-support.ts';
import { sinks, SOUND_CARD as CARD, standInPactl } from './stand-in-pactl.test-support.ts';

describe('headphonesInUse', () => {
  it('is a headset when the default output plays on its headphones port with something in the jack', () => {
    expect(headphonesInUse(sinks('analog-output-headphones', 'available'), CARD)).toBe(true);
  });

  it('is a speaker on the speaker port, on another default output, or with the jack empty', () => {
    expect(headphonesInUse(sinks('analog-output-speaker', 'available'), CARD)).toBe(false);
    expect(headphonesInUse(sinks('analog-output-headphones', 'available'), 'alsa_output.hdmi')).toBe(false);
    expect(headphonesInUse(sinks('analog-output-headphones', 'not available'), CARD)).toBe(false);
  });

  it('is a speaker when what pactl said cannot be read', () => {
    expect(headphonesInUse('Connection failure: Connection refused', CARD)).toBe(false);
    expect(headphonesInUse('{"name": 1}', CARD)).toBe(false);
  });
});

describe('headsetPluggedIn', () => {
  it('asks pactl which output is in use and whether it is a plugged-in headset', async () => {
    await expect(headsetPluggedIn(standInPactl(sinks('analog-output-headphones', 'available'), CARD).program)).resolves.toBe(true);
    await expect(headsetPluggedIn(standInPactl(sinks('analog-output-speaker', 'available'), CARD).program)).resolves.toBe(false);
  });

  it('takes no pactl, or a failing one, for a speaker', async () => {
    await expect(headsetPluggedIn('/nonexistent/pactl')).resolves.toBe(false);
    await expect(headsetPluggedIn('false')).resolves.toBe(false);
  });

  it('takes a pactl that hangs and ignores SIGTERM for a speaker, and leaves none of it running (#28 §11)', async () => {
    const stubborn = stubbornProgram('pactl');
    onTestFinished(stubborn.killAll);
    await expect(headsetPluggedIn(stubborn.program)).resolves.toBe(false);
    expect(stubborn.started()).toHaveLength(2);
    expect(stubborn.alive()).toEqual([]);
  });
});
