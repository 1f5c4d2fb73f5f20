import type { z } from 'zod';
import { operations, type Operation, type OperationId, type Operations } from '../../api/operations.std.ts';
import { silentLogger, type Logger } from '../logging/logger.std.ts';
import { errorFromAnswer, LoyaltyError, type LoyaltyErrorKind } from './errors.std.ts';
import { maskedForLog } from './log-masking.std.ts';
import { chooseCredential, wireRequest, type LoyaltyCredentials, type WireRequest } from './request.std.ts';
import { remainingBudgetMs } from './time-budget.node.ts';
import { jsonOrUndefined } from '../../common/json.std.ts';
import { sleep, timeoutSignal } from '../../base/deadline.std.ts';

/**
 * The kiosk's client of the loyalty platform: one typed function per operation of
 * api/operations.std.ts, all built from that table. Every failure is a LoyaltyError.
 */

export interface LoyaltyClientOptions {
  baseUrl: string;
  /** Asked at every call: whoever keeps them (the keychain's store) decides how long a read holds. */
  credentials: () => Promise<LoyaltyCredentials>;
  /** Told when the platform refused the credentials (401, 403): they may have changed behind the kiosk's back. */
  onCredentialsRefused?: () => void;
  /**
   * Per attempt, including reading the answer. Inside a shopper action's time budget
   * (time-budget.node.ts) an attempt gets no more than what is left of it, and no retry starts
   * that the budget cannot wait for.
   */
  timeoutMs?: number;
  /** Extra attempts for GETs after a network error, a timeout or a 5xx (not 503). Never for POST/PUT. */
  retries?: number;
  /** Wait before the first retry; doubles for each further one, plus a little jitter. */
  retryDelayMs?: number;
  logger?: Logger;
  fetch?: typeof fetch;
}

type Part<Op, Key extends 'params' | 'query' | 'body'> = Op extends { [K in Key]: infer Schema extends z.ZodType }
  ? z.input<Schema>
  : unknown;

type Flat<Op> = Part<Op, 'params'> & Part<Op, 'query'> & Part<Op, 'body'>;

/** One flat object: path parameters, query fields and body fields side by side. */
export type OperationInput<Id extends OperationId> = { [K in keyof Flat<Operations[Id]>]: Flat<Operations[Id]>[K] };

/** The whole parsed answer, envelope included. */
export type OperationResult<Id extends OperationId> = z.output<Operations[Id]['response']>;

// No argument for operations without input; an optional one when every field is optional.
type Arguments<Id extends OperationId> =
  unknown extends Flat<Operations[Id]>
    ? []
    : Partial<OperationInput<Id>> extends OperationInput<Id>
      ? [input?: OperationInput<Id>]
      : [input: OperationInput<Id>];

type OperationCall<Id extends OperationId> = (...input: Arguments<Id>) => Promise<OperationResult<Id>>;

export type LoyaltyClient = { [Id in OperationId]: OperationCall<Id> };

type Attempt = { status?: number } & ({ ok: true; answer: unknown } | { ok: false; error: LoyaltyError });

// Worth another try: the platform or the line may be fine a moment later. Maintenance is not.
const retriedKinds = new Set<LoyaltyErrorKind>(['network', 'timeout', 'server']);

export function createLoyaltyClient(options: LoyaltyClientOptions): LoyaltyClient {
  const {
    baseUrl,
    credentials,
    timeoutMs = 10_000,
    retries = 2,
    retryDelayMs = 250,
    logger = silentLogger,
    fetch: fetchAnswer = fetch,
  } = options;

  async function send(operation: Operation, request: WireRequest, credential: string): Promise<Attempt> {
    const attemptMs = Math.ceil(Math.min(timeoutMs, remainingBudgetMs()));
    if (attemptMs <= 0) return { ok: false, error: outOfTime(operation.id) };
    const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${credential}` };
    if (request.body !== undefined) headers['Content-Type'] = 'application/json';
    let status: number | undefined;
    let text: string;
    let retryAfter: string | null = null;
    try {
      const response = await fetchAnswer(request.url, {
        method: request.method,
        headers,
        body: request.body,
        signal: timeoutSignal(attemptMs),
      });
      status = response.status;
      retryAfter = response.headers.get('retry-after');
      text = await response.text();
    } catch (error) {
      return { status, ok: false, error: transportError(operation.id, error, attemptMs) };
    }
    const body = jsonOrUndefined(text);
    if (status < 200 || status > 299) return { status, ok: false, error: errorFromAnswer(operation.id, status, body, retryAfter) };
    if (body === undefined) return { status, ok: false, error: badResponse(operation.id, status, 'The answer is not JSON') };
    const parsed = operation.response.safeParse(body);
    if (!parsed.success) {
      const where = parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
      return { status, ok: false, error: badResponse(operation.id, status, `Unexpected answer (${where.join('; ')})`) };
    }
    return { status, ok: true, answer: parsed.data };
  }

  async function call(operation: Operation, input: Record<string, unknown> = {}): Promise<unknown> {
    const available = await credentials().catch(() => undefined);
    const credential = available && chooseCredential(operation.auth, available);
    if (!credential) {
      throw new LoyaltyError({
        kind: 'auth',
        operation: operation.id,
        message: `No credential for ${operation.id}: needs ${operation.auth.join(' or ')}`,
      });
    }
    const secrets = Object.values(available).filter((secret): secret is string => !!secret);
    const request = wireRequest(operation, baseUrl, input);
    const attempts = operation.method === 'GET' ? retries + 1 : 1;
    const log = logger.child({ operation: operation.id, method: operation.method, input: maskedForLog(input) });

    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      const result = await send(operation, request, credential);
      const durationMs = Math.round(performance.now() - started);
      if (result.ok) {
        log.debug('loyalty call', { attempt, status: result.status, durationMs });
        return result.answer;
      }
      const error = result.error.redacted(secrets);
      if (error.kind === 'auth') options.onCredentialsRefused?.();
      // Kind and code only: the platform's message may quote a voucher code or an e-mail address.
      log.debug('loyalty call failed', { attempt, status: result.status, durationMs, kind: error.kind, code: error.code });
      await waitBeforeRetry(error, attempt, attempts, retryDelayMs);
    }
  }

  const calls = Object.values(operations).map((operation: Operation) => [
    operation.id,
    (input?: Record<string, unknown>) => call(operation, input),
  ]);
  return Object.fromEntries(calls) as LoyaltyClient;
}

/**
 * Throws `error` unless the call may be sent again, and waits before it is: a rate limit's own
 * wait, or a backoff for the kinds a GET retries (network, timeout, server).
 */
async function waitBeforeRetry(error: LoyaltyError, attempt: number, attempts: number, retryDelayMs: number): Promise<void> {
  if (error.kind === 'rate_limited') return waitOutRateLimit(error, attempt);
  if (attempt >= attempts || !retriedKinds.has(error.kind)) throw error;
  const delayMs = retryDelayMs * 2 ** (attempt - 1) * (1 + Math.random() * 0.2);
  if (delayMs >= remainingBudgetMs()) throw error;
  await sleep(delayMs);
}

/** The longest Retry-After the kiosk waits out with the shopper in front of it: past this, they get a retry button. */
export const RATE_LIMIT_WAIT_MS = 5_000;

/**
 * A 429 refused the request before the platform did anything, so any call (a POST too) may be
 * sent once more after the wait it asks for, when that is short and inside the action's budget.
 * Otherwise, or on a second 429, the error goes up: busy, not down.
 */
async function waitOutRateLimit(error: LoyaltyError, attempt: number): Promise<void> {
  const waitMs = error.retryAfterMs;
  if (attempt > 1 || waitMs === undefined || waitMs > RATE_LIMIT_WAIT_MS || waitMs >= remainingBudgetMs()) throw error;
  await sleep(waitMs);
}


function badResponse(operation: OperationId, status: number, message: string): LoyaltyError {
  return new LoyaltyError({ kind: 'bad_response', operation, status, message });
}

function outOfTime(operation: OperationId): LoyaltyError {
  return new LoyaltyError({ kind: 'timeout', operation, message: 'The shopper action ran out of time before this request' });
}

/** No usable answer: the time ran out, or the connection failed or broke off. */
function transportError(operation: OperationId, error: unknown, timeoutMs: number): LoyaltyError {
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new LoyaltyError({ kind: 'timeout', operation, message: `No answer within ${timeoutMs} ms` });
  }
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? ` (${cause.code})` : '';
  return new LoyaltyError({ kind: 'network', operation, message: `The loyalty platform could not be reached${code}` });
}
