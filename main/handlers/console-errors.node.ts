import { BridgeFailure, type BridgeConnection, type CallHandlers } from '../bridge/dispatcher.std.ts';
import { ConfigError } from '../config/config-store.node.ts';
import { KeychainUnavailableError } from '../secrets/secret-store.node.ts';
import { isManagerCall, type CallName } from '../../common/contract.std.ts';

type AnyHandler = (input: never, connection: BridgeConnection) => Promise<unknown>;

/** A value the settings refuse is for the form to show; a keychain out of reach is unavailable. */
function inBridgeWords(error: unknown): unknown {
  if (error instanceof ConfigError) return new BridgeFailure('validation', error.message);
  if (error instanceof KeychainUnavailableError) return new BridgeFailure('unavailable', error.message);
  return error;
}

/** Every manager call of the table answers in bridge words, wrapped here once instead of in each handler. */
export function withConsoleErrors<H extends Partial<CallHandlers>>(handlers: H): H {
  const wrap = (handler: AnyHandler): AnyHandler => async (input, connection) => {
    try {
      return await handler(input, connection);
    } catch (error) {
      throw inBridgeWords(error);
    }
  };
  const entries = Object.entries(handlers as Record<CallName, AnyHandler>);
  return Object.fromEntries(entries.map(([name, handler]) => [name, isManagerCall(name as CallName) ? wrap(handler) : handler])) as H;
}
