import { ErrorBody, platformErrorByCode, type OperationId } from '../../api/operations.std.ts';

/** Every way a call to the loyalty platform can fail, as the rest of the kiosk sees it. */
export type LoyaltyErrorKind =
  | 'network'
  | 'timeout'
  | 'auth'
  | 'not_found'
  | 'conflict'
  | 'validation'
  | 'maintenance'
  | 'server'
  /** 429: the platform is busy with too many requests, not down; `retryAfterMs` says for how long. */
  | 'rate_limited'
  | 'bad_response';

export interface LoyaltyErrorShape {
  kind: LoyaltyErrorKind;
  operation?: OperationId;
  /** The platform's error code, when it sent one. */
  code?: number;
  /** The HTTP status, when an answer arrived. */
  status?: number;
  message: string;
  fieldErrors?: Record<string, string[]>;
  /** From a 429's Retry-After: how long the platform asks the kiosk to wait. */
  retryAfterMs?: number;
}

export class LoyaltyError extends Error implements LoyaltyErrorShape {
  readonly kind: LoyaltyErrorKind;
  readonly operation?: OperationId;
  readonly code?: number;
  readonly status?: number;
  readonly fieldErrors?: Record<string, string[]>;
  readonly retryAfterMs?: number;

  constructor({ message, ...shape }: LoyaltyErrorShape) {
    super(message);
    this.name = 'LoyaltyError';
    this.kind = shape.kind;
    this.operation = shape.operation;
    this.code = shape.code;
    this.status = shape.status;
    this.fieldErrors = shape.fieldErrors;
    this.retryAfterMs = shape.retryAfterMs;
  }

  /** The plain shape, e.g. to send over IPC. */
  toJSON(): LoyaltyErrorShape {
    const { kind, operation, code, status, message, fieldErrors, retryAfterMs } = this;
    return { kind, operation, code, status, message, fieldErrors, retryAfterMs };
  }

  /** A copy in which every occurrence of the given secrets is replaced, in all its texts. */
  redacted(secrets: readonly string[]): LoyaltyError {
    const redact = (text: string) => secrets.reduce((result, secret) => result.replaceAll(secret, '[redacted]'), text);
    const shape = this.toJSON();
    return new LoyaltyError({
      ...shape,
      message: redact(shape.message),
      fieldErrors:
        shape.fieldErrors &&
        Object.fromEntries(Object.entries(shape.fieldErrors).map(([field, texts]) => [field, texts.map(redact)])),
    });
  }
}

function kindOfStatus(status: number): LoyaltyErrorKind {
  // 413: the request was too large, a fault of the request as much as a 400 is.
  if (status === 400 || status === 413 || status === 422) return 'validation';
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 503) return 'maintenance';
  // Too many requests: the platform is busy, not down; the client may wait and try once more.
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server';
  return 'bad_response';
}

/**
 * The error for an unsuccessful HTTP answer. The platform's code decides first, the status second,
 * so a code behaves the same whichever status carries it.
 */
export function errorFromAnswer(operation: OperationId, status: number, body: unknown, retryAfter?: string | null): LoyaltyError {
  const retryAfterMs = status === 429 ? retryAfterMsOf(retryAfter) : undefined;
  const parsed = ErrorBody.safeParse(body);
  if (!parsed.success) return new LoyaltyError({ kind: kindOfStatus(status), operation, status, message: `HTTP ${status}`, retryAfterMs });
  const { code, message, errors } = parsed.data;
  const kind = platformErrorByCode(code)?.category ?? kindOfStatus(status);
  return new LoyaltyError({ kind, operation, code, status, message, fieldErrors: errors, retryAfterMs });
}

/**
 * Retry-After (RFC 9110): delay seconds, or an HTTP date. Missing or unreadable: undefined, so the
 * kiosk does not wait blind; a date in the past is no wait.
 */
export function retryAfterMsOf(header: string | null | undefined, now = Date.now()): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
