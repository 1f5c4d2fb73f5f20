import { z } from 'zod';

/** Wire format of the browser host's WebSocket: the same calls and events as Electron's IPC. */
export const BROWSER_BRIDGE_PATH = '/bridge';
export const BROWSER_BRIDGE_SCRIPT = '/kiosk-bridge.js';
/** The host's own event, never the app's: the page loads itself afresh (the fleet's `reload`). */
export const PAGE_RELOAD_EVENT = 'host:reloadPage';

export const BrowserBridgeRequest = z.object({
  id: z.number().int().nonnegative(),
  call: z.string().max(100),
  input: z.unknown(),
});
export type BrowserBridgeRequest = z.infer<typeof BrowserBridgeRequest>;

export const BrowserBridgeMessage = z.union([
  z.object({ id: z.number().int(), result: z.unknown() }),
  z.object({ event: z.string(), payload: z.unknown() }),
]);
