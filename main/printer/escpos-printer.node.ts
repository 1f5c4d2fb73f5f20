import { setTimeout as sleep } from 'node:timers/promises';
import {
  askStatus,
  askWhenDone,
  clearBuffers,
  isAutoStatusStart,
  isDoneByte,
  isStatusByte,
  problemOf,
  stateFromAutoStatus,
  stateFromStatus,
  type PrinterProblem,
  type PrinterState,
} from './escpos.std.ts';
import type { PrinterLink } from './printer-link.node.ts';

/** Why a slip did not come out, or a check found the printer unable to print. */
export type PrintFailure = PrinterProblem | 'unreachable' | 'no_answer';

export type PrinterCheck = { ready: true; state: PrinterState } | { ready: false; reason: PrintFailure; state: PrinterState | null };
export type PrintOutcome = { printed: true } | { printed: false; reason: PrintFailure };

export interface PrinterTiming {
  /** A DLE EOT answer comes at once from a printer that is there. */
  statusTimeoutMs: number;
  /** While a slip prints, the printer is asked how it is this often. */
  pollMs: number;
  /** A slip that has not come out by then is given up, and the printer's buffers cleared. */
  jobTimeoutMs: number;
}

export const DEFAULT_PRINTER_TIMING: PrinterTiming = { statusTimeoutMs: 1_500, pollMs: 250, jobTimeoutMs: 20_000 };

/**
 * An ESC/POS printer asked, never assumed: its status before a slip, and the slip confirmed by the
 * answer to a command queued behind it. A slip the printer stopped in (paper out, cover open,
 * gone) is cleared from its buffers, so it does not come out later.
 */
export class EscPosPrinter {
  constructor(
    private readonly openLink: () => Promise<PrinterLink>,
    private readonly timing: PrinterTiming = DEFAULT_PRINTER_TIMING,
  ) {}

  async check(): Promise<PrinterCheck> {
    return this.#withConversation<PrinterCheck>(async (talk) => {
      const state = await talk.state();
      const problem = problemOf(state);
      return problem ? { ready: false, reason: problem, state } : { ready: true, state };
    }, (reason) => ({ ready: false, reason, state: null }));
  }

  async print(job: Uint8Array): Promise<PrintOutcome> {
    return this.#withConversation<PrintOutcome>(async (talk) => {
      const before = problemOf(await talk.state());
      if (before) return { printed: false, reason: before };
      await talk.write(Buffer.concat([job, askWhenDone]));
      return this.#untilDone(talk);
    }, (reason) => ({ printed: false, reason }));
  }

  async #untilDone(talk: Conversation): Promise<PrintOutcome> {
    const deadline = Date.now() + this.timing.jobTimeoutMs;
    while (!talk.done) {
      if (talk.gone) return { printed: false, reason: 'unreachable' };
      if (Date.now() >= deadline) return this.#abandon(talk, 'no_answer');
      await talk.settled(this.timing.pollMs);
      if (talk.done || talk.gone) continue;
      // A printer with Automatic Status Back on has said so already; any other is asked.
      const problem = (talk.autoState && problemOf(talk.autoState)) || problemOf(await talk.state());
      if (problem) return this.#abandon(talk, problem);
    }
    return { printed: true };
  }

  /** The slip will not come out whole: whatever of it is still in the printer is dropped. */
  async #abandon(talk: Conversation, reason: PrintFailure): Promise<PrintOutcome> {
    await talk.write(clearBuffers).catch(() => undefined);
    return { printed: false, reason };
  }

  async #withConversation<T>(run: (talk: Conversation) => Promise<T>, failed: (reason: PrintFailure) => T): Promise<T> {
    let link: PrinterLink;
    try {
      link = await this.openLink();
    } catch {
      return failed('unreachable');
    }
    const talk = new Conversation(link, this.timing.statusTimeoutMs);
    try {
      return await run(talk);
    } catch (error) {
      return failed(error instanceof NoAnswer ? 'no_answer' : 'unreachable');
    } finally {
      await link.close().catch(() => undefined);
    }
  }
}

class NoAnswer extends Error {}

/**
 * One job's exchange with the printer: the bytes it sends back are told apart by their fixed bits
 * (a DLE EOT answer, an Automatic Status Back block, the answer to the GS r behind a slip).
 */
class Conversation {
  done = false;
  gone: string | null = null;
  /** The latest Automatic Status Back block's state, from a printer that sends them. */
  autoState: PrinterState | null = null;
  #statusWaiter: ((byte: number) => void) | null = null;
  #autoBlock: number[] | null = null;
  #wake: (() => void) | null = null;

  constructor(
    private readonly link: PrinterLink,
    private readonly statusTimeoutMs: number,
  ) {
    link.onData((chunk) => {
      for (const byte of chunk) this.#take(byte);
    });
    link.onGone((why) => {
      this.gone = why;
      this.#wake?.();
    });
  }

  write(data: Uint8Array): Promise<void> {
    if (this.gone) return Promise.reject(new Error(this.gone));
    return this.link.write(data);
  }

  /** DLE EOT 1, 2 and 4, one after the other: how the printer is now. */
  async state(): Promise<PrinterState> {
    const printer = await this.#ask(askStatus.printer);
    const offlineCause = await this.#ask(askStatus.offlineCause);
    const paper = await this.#ask(askStatus.paper);
    return stateFromStatus(printer, offlineCause, paper);
  }

  /** Resolves when the slip is done, the link goes, or `ms` have passed. */
  settled(ms: number): Promise<void> {
    if (this.done || this.gone) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(finish, ms);
      function finish() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = finish;
    });
  }

  async #ask(command: Uint8Array): Promise<number> {
    const answer = new Promise<number>((resolve) => (this.#statusWaiter = resolve));
    await this.write(command);
    const timeout = sleep(this.statusTimeoutMs, 'timeout' as const, { ref: false });
    const byte = await Promise.race([answer, timeout]);
    this.#statusWaiter = null;
    if (byte === 'timeout') throw this.gone ? new Error(this.gone) : new NoAnswer();
    return byte;
  }

  #take(byte: number): void {
    if (this.#autoBlock) {
      this.#autoBlock.push(byte);
      if (this.#autoBlock.length === 4) {
        this.autoState = stateFromAutoStatus(this.#autoBlock);
        this.#autoBlock = null;
        this.#wake?.();
      }
      return;
    }
    if (isAutoStatusStart(byte)) this.#autoBlock = [byte];
    else if (isStatusByte(byte)) this.#statusWaiter?.(byte);
    else if (isDoneByte(byte)) {
      this.done = true;
      this.#wake?.();
    }
  }
}
