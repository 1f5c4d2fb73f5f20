import type { LogFields, Logger, LogLevel } from '../../main/logging/logger.std.ts';

/** One line a recordingLogger kept: the child's fields merged under the line's own. */
export interface LogLine {
  level: LogLevel;
  message: string;
  fields: LogFields;
}

/** A Logger that keeps every line, its children's too, in `lines` (pass one to share it). */
export function recordingLogger(lines: LogLine[] = [], context: LogFields = {}): { logger: Logger; lines: LogLine[] } {
  const at = (level: LogLevel) => (message: string, fields: LogFields = {}) => void lines.push({ level, message, fields: { ...context, ...fields } });
  const logger: Logger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (fields) => recordingLogger(lines, { ...context, ...fields }).logger,
  };
  return { logger, lines };
}
