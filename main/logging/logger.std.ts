/** Structured logging used by every main-process service; the file sink redacts before writing. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
/**
 * A line's first argument is the message, wording for people that may change; a line that someone
 * (a test, doctor, an operator's log query) looks for also names a stable `event` in its fields,
 * dotted area.what (`fleet.command`, `camera.unavailable`), and is matched by that, never by the wording.
 */
export type LogFields = { event?: string } & Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger whose lines all carry `fields` (e.g. the portal session uuid of a visit). */
  child(fields: LogFields): Logger;
}

/** For tests and tools that must not write anywhere. */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() {
    return silentLogger;
  },
};
