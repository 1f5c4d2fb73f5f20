import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** One utterance the stand-in was asked to say: its voice, amplitude, speed and words. */
export interface RecordedUtterance {
  voice: string;
  volume: number;
  /** Words per minute. */
  rate: number;
  text: string;
  /** Whether it was cut off (SIGTERM) before it had finished. */
  stopped: boolean;
}

/**
 * A recording stand-in for espeak-ng: a program of that name in a folder of its own, to put first
 * on PATH (the kiosk runs `espeak-ng` from PATH). It writes down each utterance (arguments and the
 * text it reads on stdin), then "speaks" for `speakingSeconds` unless it is stopped.
 */
export function recordingEspeak(speakingSeconds = 5) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'espeak-stand-in-'));
  const record = path.join(dir, 'record.tsv');
  const program = path.join(dir, 'espeak-ng');
  fs.writeFileSync(
    program,
    [
      '#!/bin/sh',
      // First of all: a stop that comes at once is written down too.
      `trap 'kill $! 2>/dev/null; printf "stopped\\t%s\\n" "$$" >> '"'"'${record}'"'"'; exit 0' TERM`,
      'text=$(cat)',
      `printf 'said\\t%s\\t%s\\t%s\\n' "$$" "$*" "$text" >> '${record}'`,
      `sleep ${speakingSeconds} & wait $!`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  fs.writeFileSync(record, '');

  const utterances = (): RecordedUtterance[] => {
    const lines = fs.readFileSync(record, 'utf8').split('\n').filter(Boolean).map((line) => line.split('\t'));
    const stopped = new Set(lines.filter(([kind]) => kind === 'stopped').map(([, pid]) => pid));
    return lines
      .filter(([kind]) => kind === 'said')
      .map(([, pid, args, text]) => {
        const words = args!.split(' ');
        const option = (name: string) => words[words.indexOf(name) + 1]!;
        return { voice: option('-v'), volume: Number(option('-a')), rate: Number(option('-s')), text: text ?? '', stopped: stopped.has(pid!) };
      });
  };
  return {
    program,
    /** PATH with the stand-in first. */
    path: `${dir}${path.delimiter}${process.env.PATH ?? ''}`,
    utterances,
    last: () => utterances().at(-1) ?? null,
  };
}
