import { z } from 'zod';
import { KioskConfig } from './config-schema.std.ts';
import { Scan } from './scan.std.ts';

/**
 * The bridge contract: every call the renderer may make and every event main may send, each with
 * its schema. Main validates every incoming payload and every answer against it; the preload
 * validates events on the way in. Nothing else crosses the process boundary.
 */

const NoInput = z.object({}).strict();

/** What the shopper screens need to know of the settings: never secrets, never the PIN hash. */
export const KioskSettingsView = z.object({
  demo: z.boolean(),
  mode: KioskConfig.shape.kiosk.unwrap().shape.mode,
  session: KioskConfig.shape.session.unwrap(),
  scannerConnection: KioskConfig.shape.scanner.unwrap().shape.connection,
  idleTimeoutSeconds: z.number().int(),
  locale: KioskConfig.shape.locale.unwrap(),
  brand: KioskConfig.shape.brand.unwrap(),
});
export type KioskSettingsView = z.infer<typeof KioskSettingsView>;

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  demo: z.boolean(),
});
export type AppInfo = z.infer<typeof AppInfo>;

export const calls = {
  getAppInfo: { input: NoInput, output: AppInfo },
  getSettings: { input: NoInput, output: KioskSettingsView },
  /** The renderer reports its own failures so they reach the log file. */
  reportRendererError: {
    input: z.object({ message: z.string().max(2000), where: z.string().max(200).optional() }).strict(),
    output: z.null(),
  },
} as const;

export const events = {
  scan: Scan,
  settingsChanged: KioskSettingsView,
} as const;

export type CallName = keyof typeof calls;
export type EventName = keyof typeof events;
export type CallInput<N extends CallName> = z.input<(typeof calls)[N]['input']>;
export type CallOutput<N extends CallName> = z.output<(typeof calls)[N]['output']>;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

/** Error codes the renderer can act on; the message is for logs and staff, never a stack. */
export const BridgeErrorCode = z.enum([
  'unknown_call',
  'invalid_payload',
  'forbidden',
  'unavailable',
  'network',
  'timeout',
  'auth',
  'not_found',
  'conflict',
  'validation',
  'maintenance',
  'server',
  'bad_response',
  'internal',
]);
export type BridgeErrorCode = z.infer<typeof BridgeErrorCode>;

export const BridgeError = z.object({
  code: BridgeErrorCode,
  message: z.string(),
  /** Platform error code (e.g. 80005 already redeemed), when the platform gave one. */
  platformCode: z.number().int().optional(),
  fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
});
export type BridgeError = z.infer<typeof BridgeError>;

export type BridgeResult<T> = { ok: true; value: T } | { ok: false; error: BridgeError };

type CallFunction<N extends CallName> = {} extends CallInput<N>
  ? (input?: CallInput<N>) => Promise<BridgeResult<CallOutput<N>>>
  : (input: CallInput<N>) => Promise<BridgeResult<CallOutput<N>>>;

/** The one object the renderer sees as `window.kiosk`. */
export type KioskApi = { [N in CallName]: CallFunction<N> } & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.hasOwn(calls, name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}

/** The single IPC channel pair both hosts carry. */
export const INVOKE_CHANNEL = 'kiosk:invoke';
export const EVENT_CHANNEL = 'kiosk:event';
