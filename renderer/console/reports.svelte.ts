import type { BridgeResult, KioskApi } from '../../common/contract.std.ts';
import type { RedemptionEventView, ShiftReport, SlipRecord, ZSummary } from '../../common/report-views.std.ts';
import type { ConsoleCall } from './console-link.svelte.ts';
import type { ExportedFile } from './download.dom.ts';
import { exportedText, failureText } from './wording.svelte';

export type ReportsBridge = Pick<
  KioskApi,
  'getXReport' | 'reconcileOpenShift' | 'listZReports' | 'getZReport' | 'closeShift' | 'findRedemptions' | 'exportLedgerCsv' | 'reprintSlip' | 'listSlips'
>;

/** The Reports tab's state: the shift so far (X), the closed shifts (Z), one Z, and a voucher's events. */
export class ReportsPanel {
  x = $state<ShiftReport | null>(null);
  zs = $state<ZSummary[]>([]);
  /** The Z the manager opened, or just closed. */
  shown = $state<ShiftReport | null>(null);
  /** The events of the code last looked for; null before any search. */
  found = $state<RedemptionEventView[] | null>(null);
  /** The code last looked for, as sent. */
  searched = $state<string | null>(null);
  /** The redemption whose proof code was looked for: the slip is genuine. */
  readonly proven = $derived(this.found?.find((event) => event.kind === 'redeemed' && event.proofCode === this.searched) ?? null);
  problem = $state<string | null>(null);
  exported = $state<string | null>(null);
  /** What became of the proven redemption's reprint; null before one was asked for. */
  reprinted = $state<SlipRecord | null>(null);
  /** The proven redemption's slips on record (the first, and its reprints); empty when none was printed. */
  slips = $state<SlipRecord[]>([]);
  busy = $state(false);
  readonly #bridge: ReportsBridge;
  readonly #call: ConsoleCall;
  readonly #handOver: (file: ExportedFile) => void;

  constructor({ bridge, call, handOver }: { bridge: ReportsBridge; call: ConsoleCall; handOver: (file: ExportedFile) => void }) {
    this.#bridge = bridge;
    this.#call = call;
    this.#handOver = handOver;
  }

  async load() {
    const [x, zs] = await Promise.all([this.#call(() => this.#bridge.getXReport()), this.#call(() => this.#bridge.listZReports())]);
    if (x.ok) this.x = x.value;
    if (zs.ok) this.zs = zs.value;
    const failed = !x.ok ? x : !zs.ok ? zs : null;
    this.problem = failed ? failureText(failed.error) : null;
  }

  /** The X checked against the platform now: what it disagrees with, shown under the X. */
  async reconcile() {
    const x = await this.#whileBusy(() => this.#bridge.reconcileOpenShift());
    if (x) this.x = x;
  }

  /** The Z, once the manager has confirmed: shown at once, and the X starts afresh. */
  async closeShift() {
    const z = await this.#whileBusy(() => this.#bridge.closeShift());
    if (!z) return;
    this.shown = z;
    await this.load();
  }

  /** A call that changes or checks the shift: one at a time (its buttons wait), a refusal said. */
  async #whileBusy(run: () => Promise<BridgeResult<ShiftReport>>): Promise<ShiftReport | null> {
    this.busy = true;
    const result = await this.#call(run);
    this.busy = false;
    if (!result.ok) this.problem = failureText(result.error);
    return result.ok ? result.value : null;
  }

  async showZ(zNumber: number) {
    const result = await this.#call(() => this.#bridge.getZReport({ zNumber }));
    if (!result.ok) return void (this.problem = failureText(result.error));
    this.shown = result.value;
  }

  async find(code: string) {
    const value = code.trim();
    if (value === '') return;
    const result = await this.#call(() => this.#bridge.findRedemptions({ code: value }));
    if (!result.ok) return void (this.problem = failureText(result.error));
    this.searched = value;
    this.found = result.value;
    this.reprinted = null;
    this.slips = [];
    if (this.proven) await this.#loadSlips(value);
  }

  async #loadSlips(proofCode: string) {
    const slips = await this.#call(() => this.#bridge.listSlips({ proofCode }));
    if (slips.ok) this.slips = slips.value;
  }

  /** The proven redemption's slip printed again, marked DUPLICATE (a shopper lost hers, the till's scan failed). */
  async reprint() {
    const proofCode = this.proven?.proofCode;
    if (!proofCode || this.busy) return;
    this.busy = true;
    const result = await this.#call(() => this.#bridge.reprintSlip({ proofCode }));
    this.busy = false;
    if (!result.ok) return void (this.problem = failureText(result.error));
    this.reprinted = result.value;
    await this.#loadSlips(proofCode);
  }

  /** The open shift's rows, shift `shift`'s, or those of the business days from..to, as CSV through the console's save path. */
  async exportCsv(range: { shift?: number } | { fromDay: string; toDay: string } = {}) {
    const result = await this.#call(() => this.#bridge.exportLedgerCsv(range));
    if (!result.ok) return void (this.problem = failureText(result.error));
    this.#handOver(result.value);
    this.exported = exportedText(result.value);
  }
}
