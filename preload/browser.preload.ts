import { createKioskApi, type BridgeTransport } from './bridge.std.ts';
import { BROWSER_BRIDGE_PATH, BrowserBridgeMessage, PAGE_RELOAD_EVENT } from '../common/browser-bridge-protocol.std.ts';
import { jsonOrUndefined } from '../common/json.std.ts';

/**
 * The browser host's stand-in for Electron's preload: it runs before the app and builds the same
 * `window.kiosk` over a loopback WebSocket, authenticated by the launch token in the page URL.
 */
function createWebSocketTransport(): BridgeTransport {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const url = `${location.origin.replace(/^http/, 'ws')}${BROWSER_BRIDGE_PATH}?token=${encodeURIComponent(token)}`;
  const pending = new Map<number, (result: unknown) => void>();
  const eventListeners = new Set<(event: string, payload: unknown) => void>();
  let nextId = 0;
  let socket: WebSocket;
  let opened: Promise<void>;
  let connectedBefore = false;

  const connect = (attempt = 0) => {
    socket = new WebSocket(url);
    opened = new Promise((resolve) =>
      socket.addEventListener(
        'open',
        () => {
          // Back after the host went away: a new kiosk process (a restart), whose state this page
          // does not know. It loads afresh from it, now that it answers, and sends it nothing before.
          if (connectedBefore) return location.reload();
          connectedBefore = true;
          resolve();
        },
        { once: true },
      ),
    );
    socket.addEventListener('message', (message) => {
      const parsed = BrowserBridgeMessage.safeParse(jsonOrUndefined(String(message.data)));
      if (!parsed.success) return;
      if ('id' in parsed.data) {
        pending.get(parsed.data.id)?.(parsed.data.result);
        pending.delete(parsed.data.id);
      } else if (parsed.data.event === PAGE_RELOAD_EVENT) {
        location.reload();
      } else {
        for (const listener of eventListeners) listener(parsed.data.event, parsed.data.payload);
      }
    });
    socket.addEventListener('close', () => {
      for (const resolve of pending.values()) {
        resolve({ ok: false, error: { code: 'unavailable', message: 'the kiosk service went away' } });
      }
      pending.clear();
      setTimeout(() => connect(attempt + 1), Math.min(5_000, 250 * 2 ** attempt));
    });
  };
  connect();

  return {
    async invoke(call, input) {
      await opened;
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        socket.send(JSON.stringify({ id, call, input }));
      });
    },
    subscribe(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
  };
}


Object.defineProperty(window, 'kiosk', {
  value: createKioskApi(createWebSocketTransport()),
  enumerable: true,
});
