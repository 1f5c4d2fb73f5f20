import type { CallOutput, KioskApi } from '../../common/contract.std.ts';
import type { ConsoleCall } from './console-link.svelte.ts';
import { failureText } from './wording.svelte';

export type PrinterBridge = Pick<KioskApi, 'printTestSlip' | 'getLastSlip'>;

/** The receipt printer as the settings tab shows it: a test slip printed now, and the last slip's preview. */
export class PrinterConsole {
  /** What the last test slip came to; null before one was asked for. */
  test = $state<CallOutput<'printTestSlip'> | null>(null);
  /** The last slip as the paper shows it (SVG); null before the first. */
  lastSlip = $state<string | null>(null);
  busy = $state(false);
  failure = $state<string | null>(null);
  readonly #bridge: PrinterBridge;
  readonly #call: ConsoleCall;

  constructor({ bridge, call }: { bridge: PrinterBridge; call: ConsoleCall }) {
    this.#bridge = bridge;
    this.#call = call;
  }

  /** A test slip with the saved settings, then the preview of what was sent. */
  async printTest() {
    if (this.busy) return;
    this.busy = true;
    this.failure = null;
    try {
      const result = await this.#call(() => this.#bridge.printTestSlip());
      if (!result.ok) this.failure = failureText(result.error);
      else this.test = result.value;
      await this.loadLastSlip();
    } finally {
      this.busy = false;
    }
  }

  async loadLastSlip() {
    const result = await this.#call(() => this.#bridge.getLastSlip());
    if (result.ok) this.lastSlip = result.value.svg;
  }
}
