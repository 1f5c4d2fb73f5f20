import type { Scan } from '../../common/scan.std.ts';
import { DuplicateFilter } from './duplicate-filter.std.ts';
import { LineFramer, type FramedLine } from './line-framer.std.ts';
import { parseScanLine } from './scan-line.std.ts';
import type { LineTerminator } from './serial-scanner-settings.std.ts';

export type DecodedLine =
  | { kind: 'scan'; scan: Scan }
  /** A line that is not a scan, for the log; blank lines are not reported. */
  | { kind: 'rejected'; reason: 'overlong' | 'invalid-utf8' | 'duplicate' };

/** Bytes from one serial connection in, `Scan` events out: framing, text, AIM, de-duplication. */
export class SerialScanDecoder {
  readonly #framer: LineFramer;
  readonly #duplicates = new DuplicateFilter();

  constructor(terminator: LineTerminator) {
    this.#framer = new LineFramer(terminator);
  }

  get bufferedBytes(): number {
    return this.#framer.bufferedBytes;
  }

  /** `now`: epoch ms the chunk arrived; stamps the scans and drives de-duplication. */
  push(chunk: Uint8Array, now: number): DecodedLine[] {
    return this.#framer.push(chunk).flatMap((line) => this.#decode(line, now));
  }

  /** End of an idle pause: the buffered bytes are a complete scan. */
  flush(now: number): DecodedLine[] {
    return this.#framer.flush().flatMap((line) => this.#decode(line, now));
  }

  #decode(line: FramedLine, now: number): DecodedLine[] {
    if (line.kind === 'overlong') return [{ kind: 'rejected', reason: 'overlong' }];
    const parsed = parseScanLine(line.bytes);
    if (!parsed.ok) {
      return parsed.reason === 'empty' ? [] : [{ kind: 'rejected', reason: parsed.reason }];
    }
    if (!this.#duplicates.accept(parsed.value, now)) return [{ kind: 'rejected', reason: 'duplicate' }];
    const scan: Scan = { value: parsed.value, source: 'serial', at: now };
    if (parsed.symbology !== undefined) scan.symbology = parsed.symbology;
    return [{ kind: 'scan', scan }];
  }
}
