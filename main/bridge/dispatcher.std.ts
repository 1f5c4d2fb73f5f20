import type { z } from 'zod';
import {
  BridgeErrorCode,
  calls,
  isCallName,
  type BridgeError,
  type BridgeResult,
  type CallName,
  type CallOutput,
} from '../../preload/contract.std.ts';
import type { Logger } from '../logging/logger.std.ts';

/** A failure a service means to report across the bridge, with a code the renderer acts on. */
export class BridgeFailure extends Error {
  override readonly name = 'BridgeFailure';
  constructor(
    readonly code: BridgeErrorCode,
    message: string,
    readonly extra: Pick<BridgeError, 'platformCode' | 'fieldErrors'> = {},
  ) {
    super(message);
  }
}

export type CallHandlers = {
  [N in CallName]: (input: z.output<(typeof calls)[N]['input']>) => Promise<CallOutput<N>>;
};

export type Dispatch = (call: unknown, payload: unknown) => Promise<BridgeResult<unknown>>;

/**
 * The one place a bridge call is checked and run, for both hosts: unknown calls and malformed
 * payloads are refused, answers are cut down to their schema (so no raw platform body or stray
 * field crosses), and failures become `{code, message}`: stack traces stay in the log.
 */
export function createDispatcher(handlers: CallHandlers, logger: Logger): Dispatch {
  return async (call, payload) => {
    if (!isCallName(call)) {
      logger.warn('bridge: refused unknown call', { call: String(call).slice(0, 80) });
      return failure('unknown_call', 'unknown call');
    }
    const input = calls[call].input.safeParse(payload);
    if (!input.success) {
      logger.warn('bridge: refused malformed payload', { call, issues: input.error.issues.length });
      return failure('invalid_payload', `invalid input for ${call}`);
    }
    try {
      const handler = handlers[call] as (input: unknown) => Promise<unknown>;
      const value = calls[call].output.parse(await handler(input.data));
      return { ok: true, value };
    } catch (error) {
      return { ok: false, error: toBridgeError(call, error, logger) };
    }
  };
}

function failure(code: BridgeErrorCode, message: string): BridgeResult<never> {
  return { ok: false, error: { code, message } };
}

/** Errors that carry a `kind` the contract knows (the loyalty client's) pass their kind on. */
function toBridgeError(call: CallName, error: unknown, logger: Logger): BridgeError {
  if (error instanceof BridgeFailure) {
    // Logged as `kind`, like a platform failure: a `code` field is masked as if it were a voucher code.
    logger.info('bridge: call refused', { call, kind: error.code });
    return { code: error.code, message: error.message, ...error.extra };
  }
  const known = error as { kind?: unknown; code?: unknown; message?: unknown; fieldErrors?: unknown };
  const kind = BridgeErrorCode.safeParse(known?.kind);
  if (kind.success) {
    logger.info('bridge: call failed', { call, kind: kind.data, platformCode: known.code });
    return {
      code: kind.data,
      message: String(known.message ?? kind.data),
      ...(typeof known.code === 'number' ? { platformCode: known.code } : {}),
      ...(known.fieldErrors ? { fieldErrors: known.fieldErrors as Record<string, string[]> } : {}),
    };
  }
  logger.error('bridge: call crashed', { call, error: String(error), stack: (error as Error)?.stack });
  return { code: 'internal', message: 'something went wrong in the kiosk service' };
}
