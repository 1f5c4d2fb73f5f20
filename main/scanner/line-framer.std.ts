import type { LineTerminator } from './serial-scanner-settings.std.ts';

/** Longest line kept; a barcode never comes close, so anything longer is noise. */
export const MAX_LINE_BYTES = 4096;

const CR = 0x0d;
const LF = 0x0a;

export type FramedLine =
  | { kind: 'line'; bytes: Uint8Array }
  /** Reported once per overlong line, when it passes the cap; its bytes are discarded. */
  | { kind: 'overlong' };

/**
 * Cuts a serial byte stream into lines, whatever the chunking of the reads.
 *
 * A line ends at the last byte of its terminator (CR for `CR`, LF for `LF` and `CRLF`). Other
 * CR/LF bytes stay in the line and are stripped later with the other control bytes, so a CRLF
 * split across two reads needs no extra state, and a scanner sending CRLF to a `CR` setting
 * still works. With `{idleMs}` nothing ends a line here: the owner calls `flush()` after the pause.
 *
 * Memory is bounded: the buffer never holds more than `maxLineBytes`; past that the line is
 * reported as overlong and its remaining bytes are skipped up to the next line end.
 */
export class LineFramer {
  readonly #endByte: number | undefined;
  readonly #buffer: Uint8Array;
  #length = 0;
  #skippingOverlong = false;

  constructor(terminator: LineTerminator, maxLineBytes = MAX_LINE_BYTES) {
    this.#endByte = terminator === 'CR' ? CR : terminator === 'LF' || terminator === 'CRLF' ? LF : undefined;
    this.#buffer = new Uint8Array(maxLineBytes);
  }

  /** Bytes of the unfinished line currently held. */
  get bufferedBytes(): number {
    return this.#length;
  }

  push(chunk: Uint8Array): FramedLine[] {
    const lines: FramedLine[] = [];
    for (const byte of chunk) {
      if (byte === this.#endByte) {
        this.#endLine(lines);
      } else if (this.#skippingOverlong) {
        continue;
      } else if (this.#length === this.#buffer.length) {
        this.#length = 0;
        this.#skippingOverlong = true;
        lines.push({ kind: 'overlong' });
      } else {
        this.#buffer[this.#length++] = byte;
      }
    }
    return lines;
  }

  /** Ends the current line (idle timeout); returns it if there was one. */
  flush(): FramedLine[] {
    const lines: FramedLine[] = [];
    this.#endLine(lines);
    return lines;
  }

  #endLine(lines: FramedLine[]) {
    if (this.#length > 0 && !this.#skippingOverlong) {
      lines.push({ kind: 'line', bytes: this.#buffer.slice(0, this.#length) });
    }
    this.#length = 0;
    this.#skippingOverlong = false;
  }
}
