import type { Page } from 'playwright-core';
import { BROWSER_BRIDGE_PATH } from '../../common/browser-bridge-protocol.std.ts';

/**
 * Sits in the page's bridge socket (browser host) before the page loads: every message passes
 * as it is, except that the next `call` after `busyOnce(call)` is answered "rate_limited" by the
 * test, the way the kiosk's services answer while the platform asks it to slow down.
 */
export async function busyBridge(page: Page): Promise<{ busyOnce(call: string): void }> {
  const busy = new Set<string>();
  await page.routeWebSocket((url) => url.pathname === BROWSER_BRIDGE_PATH, (socket) => {
    const server = socket.connectToServer();
    socket.onMessage((message) => {
      const request = JSON.parse(String(message)) as { id: number; call: string };
      if (!busy.delete(request.call)) return server.send(message);
      socket.send(JSON.stringify({ id: request.id, result: { ok: false, error: { code: 'rate_limited', message: 'slow down' } } }));
    });
  });
  return { busyOnce: (call) => void busy.add(call) };
}
