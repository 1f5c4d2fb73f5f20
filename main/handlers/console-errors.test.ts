import { describe, expect, it } from 'vitest';
import { BridgeConnection, BridgeFailure, type CallHandlers } from '../bridge/dispatcher.std.ts';
import { ConfigError } from '../config/config-store.node.ts';
import { KeychainUnavailableError } from '../secrets/secret-store.node.ts';
import { calls, isManagerCall, type CallName } from '../../common/contract.std.ts';
import { withConsoleErrors } from './console-errors.node.ts';

type Handler = (input: never, connection: BridgeConnection) => Promise<unknown>;

/** Every call of the contract, each throwing `error`, after the table was wrapped once. */
function tableThrowing(error: Error) {
  const table = Object.fromEntries(Object.keys(calls).map((name) => [name, async () => Promise.reject(error)]));
  return Object.entries(withConsoleErrors(table as Partial<CallHandlers>)) as Array<[CallName, Handler]>;
}

const failureOf = async (handler: Handler) => handler({} as never, new BridgeConnection('test')).then(() => null, (error: unknown) => error);

describe('console errors in bridge words', () => {
  it('turns a refused setting into validation and an unreachable keychain into unavailable, for every manager call', async () => {
    for (const [error, code] of [[new ConfigError('idle.timeoutSeconds: too small'), 'validation'], [new KeychainUnavailableError('no keychain'), 'unavailable']] as const) {
      for (const [name, handler] of tableThrowing(error).filter(([name]) => isManagerCall(name))) {
        const failure = await failureOf(handler);
        expect(failure, name).toBeInstanceOf(BridgeFailure);
        expect(failure, name).toMatchObject({ code, message: error.message });
      }
    }
  });

  it('leaves the other calls\' errors and any other error as they are', async () => {
    const config = new ConfigError('bad');
    for (const [name, handler] of tableThrowing(config).filter(([name]) => !isManagerCall(name))) {
      await expect(failureOf(handler), name).resolves.toBe(config);
    }
    const crash = new Error('boom');
    for (const [name, handler] of tableThrowing(crash)) await expect(failureOf(handler), name).resolves.toBe(crash);
  });
});
