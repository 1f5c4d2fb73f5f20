/**
 * The few ESC/POS commands the kiosk speaks itself, and the printer's status bytes (Epson's
 * ESC/POS reference; Citizen, SII, Fujitsu and most others answer the same). receiptline lays the
 * slip out; asking the printer how it is, and whether the slip came out, is this file's.
 */

const DLE = 0x10;
const EOT = 0x04;
const DC4 = 0x14;
const GS = 0x1d;

/** DLE EOT n: real-time status, answered at once even while the printer is offline or busy. */
export const askStatus = {
  printer: Uint8Array.from([DLE, EOT, 1]),
  offlineCause: Uint8Array.from([DLE, EOT, 2]),
  paper: Uint8Array.from([DLE, EOT, 4]),
} as const;

/**
 * GS r 1: the paper sensor, answered in turn with the data before it. Its answer after a slip means
 * the printer has worked through the whole slip.
 */
export const askWhenDone = Uint8Array.from([GS, 0x72, 1]);

/**
 * DLE DC4 8 (fn 8: clear buffers): a real-time command that drops everything received and not
 * printed, so an interrupted slip does not come out once paper is loaded again.
 */
export const clearBuffers = Uint8Array.from([DLE, DC4, 8, 1, 3, 20, 1, 6, 2, 8]);

/** How the printer is, from its DLE EOT 1, 2 and 4 answers. */
export interface PrinterState {
  online: boolean;
  coverOpen: boolean;
  paperOut: boolean;
  paperNearEnd: boolean;
}

/** Why a printer cannot print now, worst first; null when it can. */
export type PrinterProblem = 'offline' | 'cover_open' | 'paper_out';

export function problemOf(state: PrinterState): PrinterProblem | null {
  if (state.coverOpen) return 'cover_open';
  if (state.paperOut) return 'paper_out';
  return state.online ? null : 'offline';
}

/** A DLE EOT answer: bits 1 and 4 set, bits 0 and 7 clear. */
export const isStatusByte = (byte: number) => (byte & 0x93) === 0x12;
/** An Automatic Status Back block's first byte: bit 4 set, bits 0, 1 and 7 clear (its four bytes say all at once). */
export const isAutoStatusStart = (byte: number) => (byte & 0x93) === 0x10;
/** GS r 1's answer: bits 4 and 7 clear. */
export const isDoneByte = (byte: number) => (byte & 0x90) === 0x00;

/** The state from DLE EOT 1 (printer), 2 (offline cause) and 4 (paper roll) answers. */
export function stateFromStatus(printer: number, offlineCause: number, paper: number): PrinterState {
  return {
    online: (printer & 0x08) === 0,
    coverOpen: (offlineCause & 0x04) !== 0,
    paperOut: (paper & 0x60) !== 0 || (offlineCause & 0x20) !== 0,
    paperNearEnd: (paper & 0x0c) !== 0,
  };
}

/** The state from an Automatic Status Back block (four bytes). */
export function stateFromAutoStatus(block: ArrayLike<number>): PrinterState {
  const first = block[0] ?? 0;
  const third = block[2] ?? 0;
  return {
    online: (first & 0x08) === 0,
    coverOpen: (first & 0x20) !== 0,
    paperOut: (third & 0x0c) !== 0,
    paperNearEnd: (third & 0x03) !== 0,
  };
}
