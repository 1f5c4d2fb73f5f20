import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import type { Logger } from '../logging/logger.std.ts';
import { headsetPluggedIn } from './headset.node.ts';

/** A pactl that is missing or ends is started again after this long: a sound server may come up late. */
const RETRY_MS = 30_000;

/** What pactl subscribe says when an output, a sound card or the server's default changes. */
const OUTPUT_CHANGE = /^Event '(new|change)' on (sink|card|server) /;

export interface HeadsetWatch {
  /** Resolves once the output in use at the start is known: a step from speaker to headset is one from then on. */
  readonly ready: Promise<void>;
  /** Whether the audio went to a headset when pactl was last asked. */
  headset(): boolean;
  stop(): void;
}

/**
 * Follows the sound server (`pactl subscribe`) and calls `onPlugged` when the audio steps from a
 * speaker to a headset (EN 301 549 5.1.3.9, ADA 707.5: a headset plugged in starts speech). Each
 * change of an output asks the same question speech asks (headsetPluggedIn), one at a time.
 */
export function watchHeadset(options: { onPlugged: () => void; logger: Logger; command?: string; retryMs?: number }): HeadsetWatch {
  const { onPlugged, logger, command = 'pactl', retryMs = RETRY_MS } = options;
  let stopped = false;
  let child: ChildProcess | null = null;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let toldMissing = false;
  /** Null until first asked: a headset in at the start is no plug. */
  let headset: boolean | null = null;
  let asking: Promise<void> = Promise.resolve();
  let askAgain = false;

  /** Asks pactl which output is in use; a question asked while one runs is asked once more after it. */
  const look = () => {
    if (askAgain) return;
    askAgain = true;
    asking = asking.then(async () => {
      askAgain = false;
      const now = await headsetPluggedIn(command);
      if (now && headset === false && !stopped) onPlugged();
      headset = now;
    });
  };

  const follow = () => {
    if (stopped) return;
    const subscriber = spawn(command, ['subscribe'], { stdio: ['ignore', 'pipe', 'ignore'] });
    child = subscriber;
    subscriber.once('error', (error) => {
      if (!toldMissing) logger.info('no headset watch: pactl cannot be run, so plugging in a headset does not start speech', { event: 'speech.headset_watch_off', error: error.message });
      toldMissing = true;
    });
    readline.createInterface({ input: subscriber.stdout! }).on('line', (line) => {
      if (OUTPUT_CHANGE.test(line)) look();
    });
    subscriber.once('close', () => {
      child = null;
      if (!stopped) retry = setTimeout(follow, retryMs).unref();
    });
  };

  look();
  const ready = asking;
  follow();
  return {
    ready,
    headset: () => headset === true,
    stop() {
      stopped = true;
      clearTimeout(retry);
      child?.kill('SIGKILL');
    },
  };
}
