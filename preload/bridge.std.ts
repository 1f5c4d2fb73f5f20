import {
  calls,
  events,
  isEventName,
  type BridgeResult,
  type CallName,
  type EventName,
  type KioskApi,
} from '../common/contract.std.ts';

/** What a host must provide: one request/answer channel and one event stream. */
export interface BridgeTransport {
  invoke(call: CallName, input: unknown): Promise<unknown>;
  subscribe(listener: (event: string, payload: unknown) => void): () => void;
}

const transportFailure = (message: string): BridgeResult<never> => ({
  ok: false,
  error: { code: 'unavailable', message },
});

/**
 * Builds `window.kiosk` from the contract over any transport. Inputs are checked here so a
 * renderer bug fails fast with a clear error; main checks them again, as the trust boundary.
 */
export function createKioskApi(transport: BridgeTransport): KioskApi {
  const api: Record<string, unknown> = {};
  for (const name of Object.keys(calls) as CallName[]) {
    api[name] = async (input: unknown = {}) => {
      const parsed = calls[name].input.safeParse(input);
      if (!parsed.success) {
        return { ok: false, error: { code: 'invalid_payload', message: parsed.error.issues[0]?.message ?? '' } };
      }
      try {
        return (await transport.invoke(name, parsed.data)) as BridgeResult<unknown>;
      } catch {
        return transportFailure('the kiosk service did not answer');
      }
    };
  }

  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  transport.subscribe((event, payload) => {
    if (!isEventName(event)) return;
    const parsed = events[event].safeParse(payload);
    if (!parsed.success) return;
    for (const listener of listeners.get(event) ?? []) listener(parsed.data as never);
  });
  api.on = (event: EventName, listener: (payload: never) => void) => {
    if (!isEventName(event)) throw new Error(`unknown event ${String(event)}`);
    const set = listeners.get(event) ?? new Set();
    listeners.set(event, set);
    set.add(listener);
    return () => set.delete(listener);
  };
  return Object.freeze(api) as KioskApi;
}
