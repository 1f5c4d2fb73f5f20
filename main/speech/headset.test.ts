import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { headsetPluggedIn } from './headset.node.ts';
import { headphonesInUse } from './headset.std.ts';
import { stubbornProgram } from './stubborn-program.test-support.ts';

/** A laptop's or a kiosk PC's one sound card, as `pactl --format=json list sinks` shows it. */
function sinks(activePort: string, headphones: 'available' | 'not available' | 'availability unknown') {
  return JSON.stringify([
    {
      name: 'alsa_output.pci-0000_00_1f.3.analog-stereo',
      active_port: activePort,
      ports: [
        { name: 'analog-output-speaker', type: 'Speaker', availability: 'availability unknown' },
        { name: 'analog-output-headphones', type: 'Headphones', availability: headphones },
      ],
    },
    { name: 'alsa_output.hdmi', active_port: 'hdmi-output-0', ports: [{ name: 'hdmi-output-0', type: 'HDMI', availability: 'available' }] },
  ]);
}
const CARD = 'alsa_output.pci-0000_00_1f.3.analog-stereo';

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
  /** A stand-in pactl: the sinks JSON for `list sinks`, the default sink's name for `get-default-sink`. */
  function standInPactl(sinksJson: string, defaultSink: string): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pactl-stand-in-'));
    fs.writeFileSync(path.join(dir, 'sinks.json'), sinksJson);
    const program = path.join(dir, 'pactl');
    fs.writeFileSync(program, `#!/bin/sh\ncase "$*" in\n  *"list sinks"*) cat '${dir}/sinks.json' ;;\n  get-default-sink) echo '${defaultSink}' ;;\n  *) exit 1 ;;\nesac\n`, { mode: 0o755 });
    return program;
  }

  it('asks pactl which output is in use and whether it is a plugged-in headset', async () => {
    await expect(headsetPluggedIn(standInPactl(sinks('analog-output-headphones', 'available'), CARD))).resolves.toBe(true);
    await expect(headsetPluggedIn(standInPactl(sinks('analog-output-speaker', 'available'), CARD))).resolves.toBe(false);
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
