import type { ChildProcess } from 'node:child_process';
import type { KioskConfig } from '../../common/config-schema.std.ts';
import type { Utterance } from '../../common/speech.std.ts';
import type { Logger } from '../logging/logger.std.ts';
import { startEspeak } from './espeak.node.ts';
import { headsetPluggedIn } from './headset.node.ts';
import { SpeechProcesses } from './speech-processes.node.ts';
import { spokenText } from './spoken-text.std.ts';

/** One press of a volume key moves espeak-ng's amplitude this much (of 0 to 200). */
const VOLUME_STEP = 20;
const VOLUME_MIN = 10;
const VOLUME_MAX = 200;

/**
 * The kiosk's own voice (EN 301 549 5.1.3: a closed terminal brings its speech with it). One
 * utterance at a time: new speech, or the shopper acting, stops the old at once (and kills it if it
 * will not stop: SpeechProcesses). The volume the shopper chose belongs to the visit and goes with it.
 */
export class SpeechService {
  #speaking: ChildProcess | null = null;
  #volume: number | null = null;
  /** The headset hint was said this visit: once is enough. */
  #hinted = false;
  #missingLogged = false;
  /** The OS's answer being awaited: presses while it is asked share it, so one question (pactl) runs at a time. */
  #headsetAnswer: Promise<boolean> | null = null;
  /** Counts every say and stop: a say that waited for the headset check and is no longer the latest stays silent. */
  #turn = 0;
  readonly #audio: () => KioskConfig['accessibility']['audio'];
  readonly #headset: () => Promise<boolean>;
  readonly #logger: Logger;
  readonly #command: string | undefined;
  readonly #processes: SpeechProcesses;

  /**
   * `command`: the espeak-ng to run (default: `espeak-ng` from PATH); `headset`: whether the OS
   * reports a headset in use (default: asked of pactl); `stopGraceMs`: how long a stopped espeak-ng
   * has to end before it is killed.
   */
  constructor(options: {
    audio: () => KioskConfig['accessibility']['audio'];
    logger: Logger;
    command?: string;
    headset?: () => Promise<boolean>;
    stopGraceMs?: number;
  }) {
    this.#audio = options.audio;
    this.#headset = options.headset ?? (() => headsetPluggedIn());
    this.#logger = options.logger;
    this.#command = options.command;
    this.#processes = new SpeechProcesses(options.stopGraceMs);
  }

  /** Says `utterance`, cutting off what was being said; settles when it has been said, stopped or failed. */
  async say(utterance: Utterance): Promise<void> {
    this.stop();
    const turn = this.#turn;
    const privateAudio = await this.#privateListening(utterance);
    const text = spokenText(utterance, privateAudio, !this.#hinted);
    if (!text || turn !== this.#turn) return;
    this.#hinted ||= !privateAudio && utterance.parts.some((part) => part.private);
    await this.#processes.room();
    if (turn !== this.#turn) return;
    const child = startEspeak(text, { locale: utterance.locale, volume: this.volume, command: this.#command });
    this.#processes.track(child);
    this.#speaking = child;
    return new Promise((resolve) => {
      child.once('error', (error: NodeJS.ErrnoException) => {
        this.#failed(error);
        resolve();
      });
      child.once('close', () => {
        if (this.#speaking === child) this.#speaking = null;
        resolve();
      });
    });
  }

  stop(): void {
    this.#turn++;
    if (this.#speaking) this.#processes.stop(this.#speaking);
    this.#speaking = null;
  }

  /** Private parts are said on a headset only: one configured (audio.private), or one the OS reports plugged in. */
  async #privateListening({ parts }: Utterance): Promise<boolean> {
    if (this.#audio().private) return true;
    return parts.some((part) => part.private) && (await this.#askHeadset());
  }

  #askHeadset(): Promise<boolean> {
    this.#headsetAnswer ??= this.#headset().finally(() => (this.#headsetAnswer = null));
    return this.#headsetAnswer;
  }

  changeVolume(step: -1 | 1): number {
    this.#volume = Math.min(VOLUME_MAX, Math.max(VOLUME_MIN, this.volume + step * VOLUME_STEP));
    return this.#volume;
  }

  get volume(): number {
    return this.#volume ?? this.#audio().volume;
  }

  /** The visit is over: silence, the store's volume again, and the headset hint to say again. */
  endVisit(): void {
    this.stop();
    this.#volume = null;
    this.#hinted = false;
  }

  #failed(error: NodeJS.ErrnoException): void {
    if (error.code === 'ENOENT') {
      if (!this.#missingLogged) this.#logger.error('espeak-ng is not installed: the kiosk cannot speak (install the espeak-ng package)', { event: 'speech.missing' });
      this.#missingLogged = true;
      return;
    }
    this.#logger.warn('speech failed', { error: error.message });
  }
}
