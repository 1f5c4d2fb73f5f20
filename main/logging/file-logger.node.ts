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
/** Logs hold redacted but still private operational detail: only the kiosk's own user reads them. */
const LOG_FILE_MODE = 0o600;

/** Lines the log could not write, and why the last one failed: shown in diagnostics. */
export interface LogDrops {
  droppedLines: number;
  lastProblem: string | null;
}

/**
 * JSON-lines log in the data folder with size-based rotation. Every line passes the redactor,
 * so a careless call site still cannot write a secret, a full voucher code or an e-mail address.
 * A log that cannot be written (disk full, read-only, a file where the folder should be) never
 * throws: the line is dropped and counted, and the kiosk goes on.
 */
/** Opened for appending, never through a symbolic link (ELOOP): a link planted as kiosk.log leads nowhere. */
const LOG_OPEN_FLAGS = fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0);

function withLogFile(file: string, use: (fd: number) => void): void {
  const fd = fs.openSync(file, LOG_OPEN_FLAGS, LOG_FILE_MODE);
  try {
    use(fd);
  } finally {
    fs.closeSync(fd);
  }
}

export class FileLogSink {
  readonly redactor = new Redactor();
  readonly file: string;
  #size = 0;
  #drops: LogDrops = { droppedLines: 0, lastProblem: null };

  constructor(private readonly options: FileLoggerOptions) {
    this.file = path.join(options.dir, 'kiosk.log');
    this.#attempt(() => {
      fs.mkdirSync(options.dir, { recursive: true, mode: 0o700 });
      if (!fs.existsSync(this.file)) return;
      withLogFile(this.file, (fd) => {
        fs.fchmodSync(fd, LOG_FILE_MODE);
        this.#size = fs.fstatSync(fd).size;
      });
    });
  }

  write(level: LogLevel, message: string, fields: LogFields) {
    if (LEVELS[level] < LEVELS[this.options.minLevel ?? 'info']) return;
    const line = `${JSON.stringify({
      time: new Date().toISOString(),
      level,
      message: this.redactor.text(message),
      ...(this.redactor.value(fields) as LogFields),
    })}\n`;
    if (this.options.echo) process.stderr.write(line);
    const written = this.#attempt(() => {
      if (this.#size + line.length > (this.options.maxBytes ?? 1_000_000)) this.#rotate();
      withLogFile(this.file, (fd) => fs.writeSync(fd, line));
    });
    if (written) this.#size += Buffer.byteLength(line);
    else this.#drops.droppedLines += 1;
  }

  /** How many lines were lost to a failing disk since the kiosk started. */
  drops(): LogDrops {
    return { ...this.#drops };
  }

  /** The newest lines, already redacted, for diagnostics. */
  tail(lines: number): string[] {
    const text = this.#read(this.file);
    return text ? text.trimEnd().split('\n').slice(-lines) : [];
  }

  /** Every log file kept, oldest first, already redacted: what a diagnostics export carries. */
  files(): Array<{ name: string; text: string }> {
    const names = [...Array.from({ length: this.#keep }, (_, n) => `kiosk.${this.#keep - n}.log`), 'kiosk.log'];
    return names.flatMap((name) => {
      const text = this.#read(path.join(this.options.dir, name));
      return text === null ? [] : [{ name, text }];
    });
  }

  /** A log file's text, or null when it is missing, unreadable or not a plain file (a device never ends). */
  #read(file: string): string | null {
    try {
      // lstat: a link put in place of a log is not followed out of the folder into a diagnostics export.
      return fs.lstatSync(file).isFile() ? fs.readFileSync(file, 'utf8') : null;
    } catch {
      return null;
    }
  }

  /** Runs a file operation; a failure is remembered for diagnostics instead of thrown. */
  #attempt(operation: () => void): boolean {
    try {
      operation();
      return true;
    } catch (error) {
      this.#drops.lastProblem = (error as NodeJS.ErrnoException).code ?? String(error);
      return false;
    }
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
