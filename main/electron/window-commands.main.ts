import type { BrowserWindow } from 'electron';
import type { KioskHost } from '../process/kiosk-host.std.ts';

/**
 * What the fleet may do to the kiosk window: load the page afresh, and capture it as a PNG. The
 * window is made after the services start, so it is looked up at each use.
 */
export function windowCommands(kioskWindow: () => BrowserWindow | null): Required<Pick<KioskHost, 'reload' | 'screenshot'>> {
  const contents = () => {
    const window = kioskWindow();
    if (!window || window.webContents.isDestroyed()) throw new Error('the kiosk window is not open');
    return window.webContents;
  };
  return {
    reload: () => contents().reload(),
    screenshot: async () => (await contents().capturePage()).toPNG(),
  };
}
