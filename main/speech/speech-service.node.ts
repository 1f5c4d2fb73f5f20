import type { ChildProcess } from 'node:child_process';
import type { KioskConfig } from '../../common/config-schema.std.ts';
import { languageRuns, type SpeechSetting, type Utterance } from '../../common/speech.std.ts';
import type { Logger } from '../logging/logger.std.ts';
import { NORMAL_WORDS_PER_MINUTE, startEspeak } from './espeak.node.ts';
import { headsetPluggedIn } from './headset.node.ts';
import { SpeechProcesses } from './speech-processes.node.ts';
import { spokenText } from './spoken-text.std.ts';

/**
 * How far one press of a volume or speed key moves espeak-ng's amplitude (of 0 to 200) or its words
 * per minute, and the bounds: from barely audible to full, from slow and clear to fast. `whole`:
 * the level said as 100 percent (full volume, the normal speed).
 */
const STEPS: Readonly<Record<SpeechSetting, { step: number; min: number; max: number; whole: number }>> = {
  volume: { step: 20, min: 10, max: 200, whole: 200 },
  rate: { step: 20, min: 100, max: 280, whole: NORMAL_WORDS_PER_MINUTE },
};

/**
 * The kiosk's own voice (EN 301 549 5.1.3: a closed terminal brings its speech with it). One
 * utterance at a time: new speech, or the shopper acting, stops the old at once (and kills it if it
 * will not stop: SpeechProcesses). The volume and speed the shopper chose belong to the visit and go with it.
 */
export class SpeechService {
  #speaking: ChildProcess | null = null;
  /** What the shopper's keys set this visit; unset, the store's volume and the normal speed. */
  #chosen: Partial<Record<SpeechSetting, number>> = {};
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

  /**
   * Says `utterance`, cutting off what was being said, each run of it in its language's voice, one
   * after the other; settles when it has been said, stopped or failed.
   */
  async say(utterance: Utterance): Promise<void> {
    this.stop();
    const turn = this.#turn;
    const privateAudio = await this.#privateListening(utterance);
    for (const run of languageRuns(utterance)) {
      if (turn !== this.#turn) return;
      await this.#sayRun(run, privateAudio, turn);
    }
  }

  async #sayRun(run: Utterance, privateAudio: boolean, turn: number): Promise<void> {
    const text = spokenText(run, privateAudio, !this.#hinted);
    if (!text) return;
    this.#hinted ||= !privateAudio && run.parts.some((part) => part.private);
    await this.#processes.room();
    if (turn !== this.#turn) return;
    const child = startEspeak(text, { locale: run.locale, volume: this.volume, rate: this.rate, command: this.#command });
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

  /** One step of the volume or the speed, within its bounds: the new level, as a percent of full volume or of the normal speed. */
  change(setting: SpeechSetting, direction: -1 | 1): number {
    const { step, min, max, whole } = STEPS[setting];
    const level = Math.min(max, Math.max(min, this[setting] + direction * step));
    this.#chosen[setting] = level;
    return Math.round((level * 100) / whole);
  }

  get volume(): number {
    return this.#chosen.volume ?? this.#audio().volume;
  }

  /** Words per minute. */
  get rate(): number {
    return this.#chosen.rate ?? NORMAL_WORDS_PER_MINUTE;
  }

  /** The visit is over: silence, the store's volume and speed again, and the headset hint to say again. */
  endVisit(): void {
    this.stop();
    this.#chosen = {};
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
