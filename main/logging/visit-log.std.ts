import type { LogFields, Logger } from './logger.std.ts';

/**
 * The shopper's visit as the log knows it: once the visit has a portal session, every line logged
 * through `logger` carries its uuid, so one visit's lines can be read together; ending the visit
 * drops the tag.
 */
export class VisitLog {
  #session: string | null = null;
  readonly logger: Logger;

  constructor(base: Logger) {
    this.logger = tagged(base, () => (this.#session ? { portalSession: this.#session } : {}));
  }

  get session(): string | null {
    return this.#session;
  }

  begin(portalSession: string) {
    this.#session = portalSession;
  }

  end() {
    this.#session = null;
  }
}

/** A logger that adds `tag()`, as it is at the moment of each line, to every line. */
function tagged(base: Logger, tag: () => LogFields): Logger {
  const line = (level: 'debug' | 'info' | 'warn' | 'error') => (message: string, fields?: LogFields) =>
    base[level](message, { ...tag(), ...fields });
  return {
    debug: line('debug'),
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    child: (fields) => tagged(base.child(fields), tag),
  };
}
