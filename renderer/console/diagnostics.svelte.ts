import type { KioskApi } from '../../common/contract.std.ts';
import type { Diagnostics } from '../../common/manager-views.std.ts';
import type { ConsoleCall } from './console-link.svelte.ts';
import type { ExportedFile } from './download.dom.ts';
import { exportedText, failureText } from './wording.svelte';

export type DiagnosticsBridge = Pick<KioskApi, 'getDiagnostics' | 'exportDiagnostics' | 'restartKiosk' | 'quitKiosk'>;

/** The diagnostics tab's state: how the kiosk is doing, its export, and a restart or quit. */
export class DiagnosticsPanel {
  diagnostics = $state<Diagnostics | null>(null);
  problem = $state<string | null>(null);
  loading = $state(false);
  /** What became of the last export, in words (where it was saved). */
  exported = $state<string | null>(null);
  readonly #bridge: DiagnosticsBridge;
  readonly #call: ConsoleCall;
  /** Gives the manager an export: Electron saved it already, the browser host offers it as a download. */
  readonly #handOver: (file: ExportedFile) => void;

  constructor({ bridge, call, handOver }: { bridge: DiagnosticsBridge; call: ConsoleCall; handOver: (file: ExportedFile) => void }) {
    this.#bridge = bridge;
    this.#call = call;
    this.#handOver = handOver;
  }

  /** A failed reload keeps what was shown, with the problem above it. */
  async load() {
    this.loading = true;
    const result = await this.#call(() => this.#bridge.getDiagnostics());
    this.loading = false;
    if (result.ok) this.diagnostics = result.value;
    this.problem = result.ok ? null : failureText(result.error);
  }

  async exportBundle() {
    const result = await this.#call(() => this.#bridge.exportDiagnostics());
    if (!result.ok) return void (this.problem = failureText(result.error));
    this.#handOver(result.value);
    this.exported = exportedText(result.value);
  }

  /** Restart or quit, once confirmed; main answers before it goes. */
  async stop(action: 'restart' | 'quit') {
    const result = await this.#call(() => (action === 'restart' ? this.#bridge.restartKiosk() : this.#bridge.quitKiosk()));
    if (!result.ok) this.problem = failureText(result.error);
  }
}
