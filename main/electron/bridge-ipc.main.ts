import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { EVENT_CHANNEL, INVOKE_CHANNEL, type BridgeResult } from '../../common/contract.std.ts';
import { BridgeConnection } from '../bridge/dispatcher.std.ts';
import type { KioskServices } from '../kiosk-services.node.ts';
import { isAppUrl } from '../security/app-origin.std.ts';

/**
 * Carries the contract over Electron IPC. Every call is checked for who sent it: only the app's
 * own top frame, parsed as a URL; a call from any other frame is refused before it is read.
 */
export function registerBridgeIpc(ipcMain: IpcMain, services: KioskServices) {
  // One bridge connection per window (webContents), dropped with the window.
  const connections = new Map<number, BridgeConnection>();
  const connectionOf = (sender: WebContents) => {
    let connection = connections.get(sender.id);
    if (!connection) {
      connection = new BridgeConnection(`window-${sender.id}`);
      connections.set(sender.id, connection);
      // A crashed (or hung, and so crashed) renderer is reloaded by hardenWebContents: a visit it
      // showed ends here, its locks settled before the new page's screenStarted is answered.
      sender.on('render-process-gone', () => services.interruptions.screenGone(connection as BridgeConnection));
      sender.once('destroyed', () => {
        connections.delete(sender.id);
        services.activity.forget(connection as BridgeConnection);
      });
    }
    return connection;
  };
  ipcMain.handle(INVOKE_CHANNEL, async (event: IpcMainInvokeEvent, call: unknown, input: unknown) => {
    const frame = event.senderFrame;
    if (!frame || frame.parent !== null || !isAppUrl(frame.url)) {
      services.logger.warn('bridge: refused call from a foreign frame', { event: 'bridge.foreign_frame', call: String(call).slice(0, 80) });
      return { ok: false, error: { code: 'forbidden', message: 'not allowed from this frame' } } satisfies BridgeResult<never>;
    }
    return services.dispatch(call, input, connectionOf(event.sender));
  });
}

/** Forwards main's events to one window's renderer for as long as it lives. */
export function forwardBridgeEvents(contents: WebContents, services: KioskServices) {
  const unsubscribe = services.events.subscribe((event, payload) => {
    if (!contents.isDestroyed()) contents.send(EVENT_CHANNEL, event, payload);
  });
  contents.once('destroyed', unsubscribe);
}
