import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A laptop's or a kiosk PC's one sound card, as `pactl --format=json list sinks` shows it. */
export function sinks(activePort: string, headphones: 'available' | 'not available' | 'availability unknown') {
  return JSON.stringify([
    {
      name: SOUND_CARD,
      active_port: activePort,
      ports: [
        { name: 'analog-output-speaker', type: 'Speaker', availability: 'availability unknown' },
        { name: 'analog-output-headphones', type: 'Headphones', availability: headphones },
      ],
    },
    { name: 'alsa_output.hdmi', active_port: 'hdmi-output-0', ports: [{ name: 'hdmi-output-0', type: 'HDMI', availability: 'available' }] },
  ]);
}
export const SOUND_CARD = 'alsa_output.pci-0000_00_1f.3.analog-stereo';

/**
 * A stand-in pactl: the sinks JSON for `list sinks`, the default sink's name for `get-default-sink`,
 * and for `subscribe` every event written so far and from then on, as the sound server's own would.
 */
export function standInPactl(sinksJson: string, defaultSink = SOUND_CARD) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pactl-stand-in-'));
  const sinksFile = path.join(dir, 'sinks.json');
  const eventsFile = path.join(dir, 'events');
  fs.writeFileSync(sinksFile, sinksJson);
  fs.writeFileSync(eventsFile, '');
  const program = path.join(dir, 'pactl');
  fs.writeFileSync(
    program,
    `#!/bin/sh\ncase "$*" in\n  *"list sinks"*) cat '${sinksFile}' ;;\n  get-default-sink) echo '${defaultSink}' ;;\n  subscribe) exec tail -n +1 -f '${eventsFile}' ;;\n  *) exit 1 ;;\nesac\n`,
    { mode: 0o755 },
  );
  return {
    program,
    /** The sinks change (a jack plugged or pulled), and the server says so. */
    change(json: string) {
      fs.writeFileSync(sinksFile, json);
      fs.appendFileSync(eventsFile, "Event 'change' on sink #0\n");
    },
  };
}
