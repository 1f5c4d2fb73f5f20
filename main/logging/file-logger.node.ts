import fs from 'node:fs';
import path from 'node:path';
import type { LogFields, Logger, LogLevel } from './logger.std.ts';
import { Redactor } from './redact.std.ts';

export interface FileLoggerOptions {
  dir: string;
  /** Rotate when the current file passes this size. */
  maxBytes?: number;
  /** Rotated files kept beside the current one (kiosk.1.log ... kiosk.N.log). */
  keep?: number;
  /** Also echo lines to stderr (development, CLIs). */
  echo?: boolean;
  minLevel?: LogLevel;
}

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * JSON-lines log in the data folder with size-based rotation. Every line passes the redactor,
 * so a careless call site still cannot write a secret, a full voucher code or an e-mail address.
 */
export class FileLogSink {
  readonly redactor = new Redactor();
  readonly file: string;
  #size: number;

  constructor(private readonly options: FileLoggerOptions) {
    fs.mkdirSync(options.dir, { recursive: true });
    this.file = path.join(options.dir, 'kiosk.log');
    this.#size = fs.existsSync(this.file) ? fs.statSync(this.file).size : 0;
  }

  write(level: LogLevel, message: string, fields: LogFields) {
    if (LEVELS[level] < LEVELS[this.options.minLevel ?? 'info']) return;
    const line = `${JSON.stringify({
      time: new Date().toISOString(),
      level,
      message: this.redactor.text(message),
      ...(this.redactor.value(fields) as LogFields),
    })}\n`;
    if (this.#size + line.length > (this.options.maxBytes ?? 1_000_000)) this.#rotate();
    fs.appendFileSync(this.file, line);
    this.#size += Buffer.byteLength(line);
    if (this.options.echo) process.stderr.write(line);
  }

  /** The newest lines, already redacted, for diagnostics. */
  tail(lines: number): string[] {
    if (!fs.existsSync(this.file)) return [];
    return fs.readFileSync(this.file, 'utf8').trimEnd().split('\n').slice(-lines);
  }

  /** Every log file kept, oldest first, already redacted: what a diagnostics export carries. */
  files(): Array<{ name: string; text: string }> {
    const names = [...Array.from({ length: this.#keep }, (_, n) => `kiosk.${this.#keep - n}.log`), 'kiosk.log'];
    return names
      .map((name) => path.join(this.options.dir, name))
      .filter((file) => fs.existsSync(file))
      .map((file) => ({ name: path.basename(file), text: fs.readFileSync(file, 'utf8') }));
  }

  get #keep(): number {
    return this.options.keep ?? 5;
  }

  #rotate() {
    const keep = this.#keep;
    const rotated = (n: number) => path.join(this.options.dir, `kiosk.${n}.log`);
    fs.rmSync(rotated(keep), { force: true });
    for (let n = keep - 1; n >= 1; n -= 1) {
      if (fs.existsSync(rotated(n))) fs.renameSync(rotated(n), rotated(n + 1));
    }
    if (fs.existsSync(this.file)) fs.renameSync(this.file, rotated(1));
    this.#size = 0;
  }
}

export function createLogger(sink: FileLogSink, context: LogFields = {}): Logger {
  const at =
    (level: LogLevel) =>
    (message: string, fields: LogFields = {}) =>
      sink.write(level, message, { ...context, ...fields });
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (fields) => createLogger(sink, { ...context, ...fields }),
  };
}
