import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Electron from 'electron';
import { EXIT } from '../process/exit-codes.std.ts';

/**
 * `loyalty-kiosk --out-of-service PAGE`: the boot session's notice after the kiosk failed to start
 * again and again (build/boot/kiosk-session). Only a static page, full screen: no services, no
 * preload, no script, no way off it, and no single-instance lock, so the kiosk tried beside it can start.
 */
export function showOutOfServicePage(electron: Pick<typeof Electron, 'app' | 'BrowserWindow' | 'Menu'>, page: string | undefined): void {
  const { app, BrowserWindow, Menu } = electron;
  if (!page || !path.isAbsolute(page) || path.extname(page) !== '.html') {
    process.stderr.write('loyalty-kiosk --out-of-service needs the absolute path of an .html page\n');
    app.exit(EXIT.refused);
    return;
  }
  void app.whenReady().then(() => {
    Menu.setApplicationMenu(null);
    const window = new BrowserWindow({
      kiosk: true,
      fullscreen: true,
      show: true,
      backgroundColor: '#111111',
      webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false, devTools: false },
    });
    window.webContents.on('will-navigate', (event) => event.preventDefault());
    window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
    void window.loadURL(pathToFileURL(page).href);
  });
}
