import type { Locale } from '../../common/config-schema.std.ts';
import type { KioskApi } from '../../common/contract.std.ts';
import type { SpeechPart, SpeechSetting } from '../../common/speech.std.ts';

export type SpeechBridge = Pick<KioskApi, 'speak' | 'stopSpeech' | 'endSpeech' | 'changeSpeech'>;

/**
 * Speech mode: the kiosk talks a shopper who cannot see the screen through every screen, in their
 * language. It needs no setting and no sight: the first navigation key on the attract screen, or
 * the help key anywhere, turns it on; it ends with the visit. Main does the speaking (espeak-ng).
 */
export class Speech {
  on = $state(false);
  /**
   * The shopper turned speech off: a navigation key no longer starts it (a sighted shopper's keys
   * move, #33 §12); the help key, the toggle or a headset still do. Forgotten with the visit.
   */
  declined = $state(false);
  readonly #bridge: SpeechBridge;
  readonly #locale: () => Locale;
  readonly #farewell: () => SpeechPart[];

  /** `farewell`: what a visit in speech mode ends with, in the shopper's language. */
  constructor(bridge: SpeechBridge, locale: () => Locale, farewell: () => SpeechPart[]) {
    this.#bridge = bridge;
    this.#locale = locale;
    this.#farewell = farewell;
  }

  start() {
    this.on = true;
  }

  /** The shopper turned speech off: silence, and quiet until they turn it on again. */
  off() {
    void this.#bridge.stopSpeech();
    this.on = false;
    this.declined = true;
  }

  /** The visit is over: silence, said so in speech mode, and speech mode off until the next shopper asks for it. */
  end() {
    const farewell = this.on ? { locale: this.#locale(), parts: this.#farewell() } : undefined;
    this.on = false;
    this.declined = false;
    void this.#bridge.endSpeech({ farewell });
  }

  /** Said in speech mode only, cutting off whatever was being said. */
  say(parts: SpeechPart[]) {
    if (this.on) this.announce(parts);
  }

  /** Said in speech mode or not: a time limit is told through more than one sense. */
  announce(parts: SpeechPart[]) {
    if (parts.length > 0) void this.#bridge.speak({ locale: this.#locale(), parts: parts.slice(0, 40) });
  }

  /** The shopper acted: speech stops at once. */
  silence() {
    if (this.on) void this.#bridge.stopSpeech();
  }

  /** One step of the volume or the speed; the new level in percent, or null where main could not say. */
  async change(setting: SpeechSetting, step: -1 | 1): Promise<number | null> {
    const changed = await this.#bridge.changeSpeech({ setting, step });
    return changed.ok ? changed.value.percent : null;
  }
}
