import { describe, expect, it } from 'vitest';
import { calls, consoleSessionCalls, managerCalls, shopperCalls, type CallName } from '../../common/contract.std.ts';
import { Redactor } from '../logging/redact.std.ts';
import { BridgeConnection, BridgeFailure, createDispatcher, type CallHandlers, type ConsoleGate } from './dispatcher.std.ts';
import { MANAGER_CALL_SAMPLES } from './manager-call-samples.test-support.ts';
import { kioskSettingsView, recordingLogger, type LogLine } from '../../test/support/factories.std.ts';

/** The lines as the log file would hold them: redacted. */
function inLogFile(lines: LogLine[]): string[] {
  const redactor = new Redactor();
  return lines.map(({ message, fields }) => `${message} ${JSON.stringify(redactor.value(fields))}`);
}

const settings = kioskSettingsView();

const openGate: ConsoleGate = { admit: async () => {} };

function dispatcherWith(overrides: Partial<CallHandlers>, lines: LogLine[] = [], gate = openGate) {
  // Only the calls these tests make; the dispatcher never touches the others.
  const handlers = {
    getAppInfo: async () => ({ name: 'Loyalty Kiosk', version: '1.0.0', demo: true }),
    getSettings: async () => structuredClone(settings),
    reportRendererError: async () => null,
    ...overrides,
  } as CallHandlers;
  const dispatch = createDispatcher(handlers, recordingLogger(lines).logger, gate);
  return (call: unknown, payload: unknown) => dispatch(call, payload, connection);
}

const connection = new BridgeConnection('test');

describe('bridge dispatcher', () => {
  it('answers a known call with {ok, value}', async () => {
    await expect(dispatcherWith({})('getAppInfo', {})).resolves.toEqual({
      ok: true,
      value: { name: 'Loyalty Kiosk', version: '1.0.0', demo: true },
    });
  });

  it('refuses unknown calls, including prototype names', async () => {
    for (const call of ['nope', '__proto__', 'constructor', 42]) {
      await expect(dispatcherWith({})(call, {})).resolves.toMatchObject({ ok: false, error: { code: 'unknown_call' } });
    }
  });

  it('refuses malformed payloads before the handler runs', async () => {
    let ran = false;
    const dispatch = dispatcherWith({ reportRendererError: async () => ((ran = true), null) });
    await expect(dispatch('reportRendererError', { message: 7 })).resolves.toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    await expect(dispatch('getAppInfo', { extra: true })).resolves.toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    expect(ran).toBe(false);
  });

  it('says which field broke which rule, never the value given', async () => {
    const lines: LogLine[] = [];
    const dispatch = dispatcherWith({}, lines);
    const refusal = async (call: string, payload: unknown) => ((await dispatch(call, payload)) as { error: { message: string } }).error.message;
    await expect(refusal('unlockManager', { pin: '12ab-secret' })).resolves.toBe('invalid input for unlockManager: field "pin": a PIN is 4 to 8 digits');
    await expect(refusal('reportRendererError', { message: 7 })).resolves.toBe(
      'invalid input for reportRendererError: field "message": Invalid input: expected string, received number',
    );
    await expect(refusal('listShopperVouchers', { contactUuid: 'not-a-uuid', page: 0 })).resolves.toBe(
      'invalid input for listShopperVouchers: field "contactUuid": Invalid UUID (and 1 more)',
    );
    await expect(refusal('getAppInfo', 'hello')).resolves.toBe('invalid input for getAppInfo: the payload: Invalid input: expected object, received string');
    // A field the call does not have is named, cut short and printable: keys are the caller's text.
    const unknownKey = await refusal('getAppInfo', { [`x\n${'k'.repeat(500)}`]: 'fake-secret-value' });
    expect(unknownKey).toBe(`invalid input for getAppInfo: field "x?${'k'.repeat(38)}": is not part of this call`);
    expect(inLogFile(lines).join('\n')).not.toMatch(/12ab-secret|fake-secret-value/);
  });

  it('hands the calling connection to the handler', async () => {
    let seen: BridgeConnection | undefined;
    const dispatch = dispatcherWith({ getAppInfo: async (_input, caller) => ((seen = caller), { name: 'K', version: '1', demo: true }) });
    await dispatch('getAppInfo', {});
    expect(seen).toBe(connection);
  });

  it('strips fields the contract does not declare from answers', async () => {
    const dispatch = dispatcherWith({
      getAppInfo: async () => ({ name: 'K', version: '1', demo: false, apiKey: 'fake-test-secret' }) as never,
    });
    const result = await dispatch('getAppInfo', {});
    expect(JSON.stringify(result)).not.toContain('fake-test-secret');
  });

  it('turns crashes into a generic error with no stack, keeping the stack in the log', async () => {
    const lines: LogLine[] = [];
    const dispatch = dispatcherWith({ getSettings: async () => { throw new Error('boom at /secret/path'); } }, lines);
    const result = await dispatch('getSettings', {});
    expect(result).toEqual({ ok: false, error: { code: 'internal', message: 'something went wrong in the kiosk service' } });
    expect(inLogFile(lines).join('\n')).toContain('boom at /secret/path');
  });

  it('passes on deliberate refusals and loyalty error kinds with their platform code', async () => {
    const refusing = dispatcherWith({ getSettings: async () => { throw new BridgeFailure('forbidden', 'locked'); } });
    await expect(refusing('getSettings', {})).resolves.toEqual({ ok: false, error: { code: 'forbidden', message: 'locked' } });
    const platform = dispatcherWith({
      getSettings: async () => { throw Object.assign(new Error('already redeemed'), { kind: 'conflict', code: 80005 }); },
    });
    await expect(platform('getSettings', {})).resolves.toEqual({
      ok: false,
      error: { code: 'conflict', message: 'already redeemed', platformCode: 80005 },
    });
  });

  it('logs why a call was refused in words redaction leaves readable', async () => {
    const lines: LogLine[] = [];
    const refusing = dispatcherWith({ getSettings: async () => { throw new BridgeFailure('validation', 'no such key'); } }, lines);
    await refusing('getSettings', {});
    expect(inLogFile(lines)).toContainEqual('bridge: call refused {"call":"getSettings","kind":"validation"}');
  });
});

describe('bridge dispatcher: console gate', () => {
  /** Every call of the contract, each noting that it ran; and a gate that refuses, noting whom. */
  function lockedKiosk() {
    const ran: string[] = [];
    const admitted: BridgeConnection[] = [];
    const handlers = Object.fromEntries(Object.keys(calls).map((name) => [name, async () => void ran.push(name)]));
    const gate: ConsoleGate = {
      admit: async (caller) => {
        admitted.push(caller);
        throw new BridgeFailure('forbidden', 'the console is locked');
      },
    };
    const dispatch = dispatcherWith(handlers as Partial<CallHandlers>, [], gate);
    return { dispatch, ran, admitted };
  }

  it('refuses every call of the manager table while the console is locked, before its handler runs', async () => {
    const { dispatch, ran, admitted } = lockedKiosk();
    expect(Object.keys(MANAGER_CALL_SAMPLES).sort()).toEqual(Object.keys(managerCalls).sort());
    for (const [call, payload] of Object.entries(MANAGER_CALL_SAMPLES)) {
      await expect(dispatch(call, payload), call).resolves.toEqual({ ok: false, error: { code: 'forbidden', message: 'the console is locked' } });
    }
    expect(ran).toEqual([]);
    expect(admitted).toHaveLength(Object.keys(managerCalls).length);
    expect(admitted.every((caller) => caller === connection)).toBe(true);
  });

  it('never asks the gate about the PIN pad\'s calls or the shopper\'s', async () => {
    const { dispatch, ran, admitted } = lockedKiosk();
    const open: Partial<Record<CallName, unknown>> = { managerStatus: {}, unlockManager: { pin: '2580' }, lockManager: {}, reportScan: { source: 'camera' }, getAppInfo: {} };
    for (const [call, payload] of Object.entries(open)) await dispatch(call, payload);
    expect(ran).toEqual(Object.keys(open));
    expect(admitted).toEqual([]);
    // The tables split the contract: no call is in two, none is left out.
    const tables = [shopperCalls, consoleSessionCalls, managerCalls].flatMap((table) => Object.keys(table));
    expect(tables.sort()).toEqual(Object.keys(calls).sort());
  });

  it('refuses a malformed manager payload as such, before the gate', async () => {
    const { dispatch, admitted } = lockedKiosk();
    await expect(dispatch('setSecret', { name: 'apiKey' })).resolves.toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    expect(admitted).toEqual([]);
  });
});
