import type { z } from 'zod';
import {
  BridgeErrorCode,
  calls,
  isCallName,
  isManagerCall,
  type ManagerCallName,
  type ShopperCallName,
  type BridgeError,
  type BridgeResult,
  type CallName,
  type CallOutput,
} from '../../common/contract.std.ts';
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

/**
 * Who is calling: one bridge connection (a browser host WebSocket, an Electron window). State a
 * call leaves behind, like an unlocked console, belongs to the connection that made the call; the
 * hosts make one per connection and drop it when the connection goes, and the state with it.
 */
export class BridgeConnection {
  /** `id` names the connection in log lines. */
  constructor(readonly id: string) {}
}

type CallInputData<N extends CallName> = z.output<(typeof calls)[N]['input']>;

export type CallHandlers = {
  [N in CallName]: (input: CallInputData<N>, connection: BridgeConnection) => Promise<CallOutput<N>>;
};

/** Handlers whose answer does not depend on which connection asks (the shopper's calls). */
export type InputOnlyHandlers<K extends ShopperCallName> = {
  [N in K]: (input: CallInputData<N>) => Promise<CallOutput<N>>;
};

/**
 * Lets a connection through to the manager's calls: throws a BridgeFailure when its console is
 * not open, and extends the session when it is.
 */
export interface ConsoleGate {
  /** Passes, or throws `forbidden`: `call` from `connection` may run now. */
  admit(connection: BridgeConnection, call: ManagerCallName): Promise<void>;
}

export type Dispatch = (call: unknown, payload: unknown, connection: BridgeConnection) => Promise<BridgeResult<unknown>>;

/**
 * The one place a bridge call is checked and run, for both hosts: unknown calls and malformed
 * payloads are refused, every call of the contract's manager table must pass the console gate,
 * answers are cut down to their schema (so no raw platform body or stray field crosses), and
 * failures become `{code, message}`: stack traces stay in the log.
 */
export function createDispatcher(handlers: CallHandlers, logger: Logger, consoleGate: ConsoleGate): Dispatch {
  return async (call, payload, connection) => {
    if (!isCallName(call)) {
      logger.warn('bridge: refused unknown call', { call: String(call).slice(0, 80) });
      return failure('unknown_call', 'unknown call');
    }
    const input = calls[call].input.safeParse(payload);
    if (!input.success) {
      const message = describeInvalidInput(call, input.error.issues);
      logger.warn('bridge: refused malformed payload', { call, problem: message });
      return failure('invalid_payload', message);
    }
    try {
      if (isManagerCall(call)) await consoleGate.admit(connection, call);
      const handler = handlers[call] as (input: unknown, connection: BridgeConnection) => Promise<unknown>;
      const value = calls[call].output.parse(await handler(input.data, connection));
      return { ok: true, value };
    } catch (error) {
      return { ok: false, error: toBridgeError(call, error, logger) };
    }
  };
}

/**
 * Names the first problem's field and rule, never the value (it may be a PIN or a secret). Field
 * names can be the caller's own keys, so each is cut short and kept to printable ASCII.
 */
function describeInvalidInput(call: CallName, issues: z.ZodError['issues']): string {
  const [issue, ...more] = issues;
  if (!issue) return `invalid input for ${call}`;
  const unknownKey = issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [];
  const segments = [...issue.path, ...unknownKey].map((segment) => String(segment).replace(/[^\x20-\x7e]/g, '?').slice(0, 40));
  const field = segments.length > 0 ? `field "${segments.join('.').slice(0, 120)}"` : 'the payload';
  const rule = unknownKey.length > 0 ? 'is not part of this call' : issue.message.slice(0, 120);
  const others = more.length > 0 ? ` (and ${more.length} more)` : '';
  return `invalid input for ${call}: ${field}: ${rule}${others}`;
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
    logger.info('bridge: call failed', { event: 'bridge.call_failed', call, kind: kind.data, platformCode: known.code });
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
