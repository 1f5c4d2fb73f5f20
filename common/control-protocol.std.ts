import { z } from 'zod';
import { ShiftReport } from './report-views.std.ts';

/**
 * What kioskctl asks the kiosk running on the same data folder, over its socket there
 * (`kioskctl.sock`): one request a connection, one JSON line each way. Only what must go through
 * the one writer: closing the shift with a Z.
 */
export const ControlRequest = z.discriminatedUnion('call', [z.object({ call: z.literal('closeShift') }).strict()]);
export type ControlRequest = z.infer<typeof ControlRequest>;

export const ControlError = z.object({ code: z.enum(['invalid', 'busy', 'unavailable', 'internal']), message: z.string().max(500) });
export type ControlError = z.infer<typeof ControlError>;

export const ControlAnswer = z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), value: ShiftReport }), z.object({ ok: z.literal(false), error: ControlError })]);
export type ControlAnswer = z.infer<typeof ControlAnswer>;

/** A request line longer than this is no request kioskctl sends. */
export const CONTROL_REQUEST_MAX_BYTES = 4096;
/** A connection that sends no whole line within this long is closed. */
export const CONTROL_IDLE_MS = 5_000;
