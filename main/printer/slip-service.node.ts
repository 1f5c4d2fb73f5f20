import fs from 'node:fs';
import path from 'node:path';
import type { KioskConfig, Locale, PrinterConfig } from '../../common/config-schema.std.ts';
import type { LedgerRow, SlipRecord } from '../../common/report-views.std.ts';
import type { PrinterIssue, SlipPlan, SlipResult } from '../../common/shopper-views.std.ts';
import type { Logger } from '../logging/logger.std.ts';
import { serialQueue } from '../../base/queue.std.ts';
import { EscPosPrinter, type PrinterCheck, type PrintFailure, type PrintOutcome } from './escpos-printer.node.ts';
import type { PrinterState } from './escpos.std.ts';
import { openPrinterLink } from './printer-link.node.ts';
import { slipMessages } from './slip-messages.std.ts';
import { slipDocument, type SlipFacts } from './slip.std.ts';
import { isPrintableLogo, slipCommands, slipPreview } from './slip-render.node.ts';

/** What the slip service needs of the ledger: its slips, beside the redemption rows. */
export interface SlipLedger {
  recordSlip(slip: Omit<SlipRecord, 'at'>): SlipRecord;
  slipsOf(proofCode: string): SlipRecord[];
  rowsForProof(proofCode: string): LedgerRow[];
}

/** A redemption as its slip tells it; the service adds the shop's lines and the settings. */
export type SlipRedemption = Pick<SlipFacts, 'reward' | 'proofCode' | 'at' | 'seq' | 'cardLast4'> & {
  /** The shopper's language; the store's default when not known. */
  locale?: Locale;
  /** The voucher's custom attributes, where `printer.posBarcodeAttribute` is looked up. */
  attributes: Record<string, unknown>;
};

export interface SlipServiceOptions {
  config: () => KioskConfig;
  ledger: SlipLedger;
  /** The folder the previews go to (`slips` in the data folder). */
  previewDir: string;
  kioskId: () => string;
  logger: Logger;
}

/**
 * The printer as the fleet, Home Assistant and the doctor see it: `ready`, `paper_near_end` (it
 * prints, and wants a roll soon), or why it cannot print; `unknown` until first asked. No printer
 * (none, preview) is `none`.
 */
export type PrinterHealthState = 'none' | 'unknown' | 'ready' | 'paper_near_end' | PrintFailure;
export interface PrinterHealth {
  kind: PrinterConfig['kind'];
  state: PrinterHealthState;
  /** When the printer last answered or failed to (epoch ms); null before the first time. */
  checkedAt: number | null;
}

/** How often the printer is asked how it is, between slips. */
const PRINTER_WATCH_MS = 60_000;

/** How many previews are kept: the newest, for the console; older ones go. */
const PREVIEWS_KEPT = 200;

/**
 * The redemption's slip (#31 §3): whether one can print (asked before a voucher is locked), the
 * slip itself after the redemption, its preview, and each outcome in the ledger.
 */
export class SlipService {
  #lastPreview: string | null = null;
  #health: Omit<PrinterHealth, 'kind'> = { state: 'unknown', checkedAt: null };
  /** One conversation with the printer at a time: a network printer takes one connection. */
  readonly #line = serialQueue();

  constructor(private readonly options: SlipServiceOptions) {}

  get #printer(): PrinterConfig {
    return this.options.config().printer;
  }

  /** Asked before a voucher is locked: a printer that cannot print now is told to the shopper before they redeem. */
  async plan(): Promise<SlipPlan> {
    if (!hasPaper(this.#printer)) return { printer: 'none' };
    const check = await this.check();
    if (check.ready) return { printer: 'ready' };
    this.options.logger.warn('the receipt printer cannot print', { event: 'printer.unavailable', issue: check.reason });
    return { printer: 'unavailable', issue: check.reason };
  }

  /** Asks the printer how it is now (the health's answer too); ready without a printer to ask. */
  async check(): Promise<PrinterCheck> {
    if (!hasPaper(this.#printer)) return { ready: true, state: { online: true, coverOpen: false, paperOut: false, paperNearEnd: false } };
    const check = await this.#line.run(() => this.#escPos().check());
    this.#noteState(check.ready ? check.state : null, check.ready ? null : check.reason);
    return check;
  }

  /**
   * Asks the printer every `intervalMs`, so the fleet learns of an empty roll before a shopper
   * does; a DLE EOT prints nothing. Answers the way to stop.
   */
  watch(intervalMs = PRINTER_WATCH_MS): () => void {
    const timer = setInterval(() => void this.check(), intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** How the printer was when last asked, for the fleet's health. */
  health(): PrinterHealth {
    const { kind } = this.#printer;
    return hasPaper(this.#printer) ? { kind, ...this.#health } : { kind, state: 'none', checkedAt: null };
  }

  /** `printer.required`: a redemption waits for a printer that can print its slip. */
  get required(): boolean {
    return hasPaper(this.#printer) && this.#printer.required;
  }

  /** Prints the slip of a redemption (a preview without a printer) and records how it went. */
  async printProof({ attributes, ...redemption }: SlipRedemption): Promise<SlipResult> {
    if (this.#printer.kind === 'none') return { slip: 'none' };
    const attribute = this.#printer.posBarcodeAttribute;
    const posBarcode = attribute ? attributes[attribute] : null;
    const onSlip = { ...redemption, posBarcode: typeof posBarcode === 'string' || typeof posBarcode === 'number' ? String(posBarcode) : null };
    const record = await this.#print(this.#facts(onSlip, false), redemption.seq);
    if (record.outcome === 'printed') return { slip: 'printed' };
    if (record.outcome === 'preview') return { slip: 'none' };
    return { slip: 'not_printed', issue: record.reason as PrinterIssue };
  }

  /**
   * The slip of a proof code printed again, the same as the first and marked DUPLICATE, in the
   * store's language; null when the ledger has no slip of it.
   */
  async reprint(proofCode: string): Promise<SlipRecord | null> {
    const { ledger } = this.options;
    const first = ledger.slipsOf(proofCode)[0];
    const redeemed = ledger.rowsForProof(proofCode).find((row) => row.seq === first?.redemptionSeq);
    if (!first || !redeemed) return null;
    const again = { reward: redeemed.voucherName ?? redeemed.voucherCode, proofCode, at: redeemed.at, seq: redeemed.seq, cardLast4: first.cardLast4, posBarcode: first.posBarcode };
    return this.#print(this.#facts(again, true), redeemed.seq);
  }

  /** The slips of a proof code on record, oldest first. */
  slipsOf(proofCode: string): SlipRecord[] {
    return this.options.ledger.slipsOf(proofCode);
  }

  /** The last slip's preview (SVG), printed or not: this run's, else the newest kept; null before the first. */
  lastPreview(): string | null {
    if (this.#lastPreview !== null) return this.#lastPreview;
    const newest = this.#keptPreviews().at(-1);
    return newest ? fs.readFileSync(path.join(this.options.previewDir, newest), 'utf8') : null;
  }

  /** A slip with every accent of the languages and €, printed now in `locale`: is the printer set up right? */
  async testPrint(locale: Locale): Promise<PrintOutcome | { printed: false; reason: 'no_printer' }> {
    const t = slipMessages[locale];
    const test = { reward: t['slip.test_title'], proofCode: '0000000000', at: new Date().toISOString(), seq: 1, cardLast4: null, posBarcode: null, locale };
    const document = slipDocument({ ...this.#facts(test, false), header: t['slip.test_text'] });
    // Its preview either way: without a printer, that is what the manager checks.
    this.#lastPreview = slipPreview(document, this.#printer);
    if (!hasPaper(this.#printer)) return { printed: false, reason: 'no_printer' };
    return this.#printOnPaper(slipCommands(document, this.#printer));
  }

  async #print(facts: SlipFacts, redemptionSeq: number): Promise<SlipRecord> {
    const document = slipDocument(facts);
    this.#keepPreview(facts, slipPreview(document, this.#printer));
    const outcome = hasPaper(this.#printer) ? await this.#printOnPaper(slipCommands(document, this.#printer)) : null;
    const slip = {
      proofCode: facts.proofCode,
      redemptionSeq,
      duplicate: facts.duplicate,
      outcome: outcome === null ? ('preview' as const) : outcome.printed ? ('printed' as const) : ('not_printed' as const),
      reason: outcome && !outcome.printed ? outcome.reason : null,
      cardLast4: facts.cardLast4,
      posBarcode: facts.posBarcode,
    };
    if (outcome && !outcome.printed) this.options.logger.warn('slip not printed', { event: 'printer.slip_not_printed', issue: outcome.reason, seq: redemptionSeq });
    try {
      return this.options.ledger.recordSlip(slip);
    } catch (error) {
      // The paper came out (or not) whatever the disk does: the shopper is told what happened to it.
      this.options.logger.error('slip not on record', { event: 'printer.slip_not_recorded', seq: redemptionSeq, error: (error as Error).message });
      return { ...slip, at: new Date().toISOString() };
    }
  }

  async #printOnPaper(job: Uint8Array): Promise<PrintOutcome> {
    const outcome = await this.#line.run(() => this.#escPos().print(job));
    this.#noteState(null, outcome.printed ? null : outcome.reason);
    return outcome;
  }

  /** What the last conversation told of the printer; a printed slip says it is ready. */
  #noteState(state: PrinterState | null, failure: PrintFailure | null): void {
    const healthState: PrinterHealthState = failure ?? (state?.paperNearEnd ? 'paper_near_end' : 'ready');
    if (healthState !== this.#health.state) this.options.logger.info('the receipt printer changed', { event: 'printer.state', state: healthState });
    this.#health = { state: healthState, checkedAt: Date.now() };
  }

  /** The slip's facts: the redemption's, and the shop's own lines from the settings. */
  #facts(redemption: Pick<SlipFacts, 'reward' | 'proofCode' | 'at' | 'seq' | 'cardLast4' | 'posBarcode'> & { locale?: Locale }, duplicate: boolean): SlipFacts {
    const config = this.options.config();
    return {
      ...redemption,
      locale: redemption.locale ?? config.locale.default,
      shopName: config.brand.name,
      tillText: config.proof.tillText,
      kioskId: this.options.kioskId(),
      duplicate,
      logo: this.#printableLogo(config.printer.logo),
      header: config.printer.header,
      footer: config.printer.footer,
    };
  }

  /** The logo, unless it cannot print safely: then the slip prints without one, and the log says why. */
  #printableLogo(logo: string | null): string | null {
    if (logo === null || isPrintableLogo(logo)) return logo;
    this.options.logger.warn('the slip logo is unreadable, or its dots spell a printer command: slips print without it', { event: 'printer.logo_left_off' });
    return null;
  }

  #keepPreview(facts: SlipFacts, svg: string): void {
    this.#lastPreview = svg;
    const { previewDir } = this.options;
    try {
      fs.mkdirSync(previewDir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(path.join(previewDir, `${String(facts.seq).padStart(10, '0')}-${facts.proofCode}${facts.duplicate ? `-duplicate-${Date.now()}` : ''}.svg`), svg);
      for (const old of this.#keptPreviews().slice(0, -PREVIEWS_KEPT)) fs.rmSync(path.join(previewDir, old), { force: true });
    } catch (error) {
      // A full disk costs the preview, never the slip or the redemption.
      this.options.logger.warn('slip preview not saved', { event: 'printer.preview_not_saved', error: (error as Error).message });
    }
  }

  /** The previews kept, oldest first (their names start with the ledger row's number). */
  #keptPreviews(): string[] {
    try {
      return fs.readdirSync(this.options.previewDir).filter((name) => name.endsWith('.svg')).sort();
    } catch {
      return [];
    }
  }

  #escPos(): EscPosPrinter {
    const printer = this.#printer;
    return new EscPosPrinter(() => openPrinterLink(printer));
  }
}

/** A printer that prints on paper (not none, not the demo's preview). */
const hasPaper = (printer: PrinterConfig) => printer.kind !== 'none' && printer.kind !== 'preview';
