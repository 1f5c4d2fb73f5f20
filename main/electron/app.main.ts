import fs from 'node:fs/promises';
import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, powerSaveBlocker, protocol, session } from 'electron';
import { DEEP_LINK_SCHEME, portalSessionFromArgv, portalSessionFromDeepLink } from '../deep-link.std.ts';
import { startKioskServices } from '../kiosk-services.node.ts';
import { appVersion, buildOutput } from '../paths/build-output.node.ts';
import { APP_ORIGIN } from '../security/app-origin.std.ts';
import { APP_SCHEME_PRIVILEGES, registerAppProtocol } from './app-protocol.main.ts';
import { forwardBridgeEvents, registerBridgeIpc } from './bridge-ipc.main.ts';
import { hardenWebContents, kioskWindowOptions } from './kiosk-window.main.ts';
import { installSessionSecurity } from './session-security.main.ts';

const dev = process.env.KIOSK_DEV === '1';

protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void start();
}

async function start() {
  await app.whenReady();
  const services = await startKioskServices({
    dataDir: process.env.KIOSK_DATA_DIR ?? dataDirArgument(process.argv) ?? app.getPath('userData'),
    version: appVersion(),
    echoLogs: dev,
    keychainService: process.env.KIOSK_KEYCHAIN_SERVICE,
    host: {
      // Through quit, not exit: the services close first, so held voucher locks are released.
      restart: () => {
        app.relaunch();
        app.quit();
      },
      quit: () => app.quit(),
      saveFile: (fileName, content) => saveWithFolderChooser(fileName, content),
    },
  });
  const logger = services.logger.child({ host: 'electron' });

  registerAppProtocol(protocol, buildOutput.rendererDir, () => services.platformOrigin());
  installSessionSecurity(session.defaultSession, logger);
  registerBridgeIpc(ipcMain, services);
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, { dev, logger }));

  // The default menu's accelerators (reload, close, full screen) would be ways out of the kiosk.
  if (!dev) Menu.setApplicationMenu(null);
  const window = new BrowserWindow(kioskWindowOptions({ preload: buildOutput.electronPreload, dev }));
  forwardBridgeEvents(window.webContents, services);
  window.once('ready-to-show', () => window.show());

  // A kiosk display must never dim or sleep while the app runs.
  powerSaveBlocker.start('prevent-display-sleep');

  app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  const openPortalSession = (uuid: string | null) => {
    if (uuid) services.events.emit('openPortalSession', { uuid });
  };
  app.on('second-instance', (_event, argv) => {
    if (window.isMinimized()) window.restore();
    window.focus();
    openPortalSession(portalSessionFromArgv(argv));
  });
  app.on('open-url', (event, url) => {
    event.preventDefault();
    openPortalSession(portalSessionFromDeepLink(url));
  });
  app.on('window-all-closed', () => app.quit());
  // Electron does not wait for an async before-quit: hold the quit until the services have closed.
  let servicesClosed = false;
  app.on('before-quit', (event) => {
    if (servicesClosed) return;
    event.preventDefault();
    void services
      .close()
      .catch((error: unknown) => logger.error('closing the services failed', { error: String(error) }))
      .finally(() => {
        servicesClosed = true;
        app.quit();
      });
  });

  // Last: a failed first load rejects, and must not leave the app without the wiring above.
  await window.loadURL(`${APP_ORIGIN}/index.html`);
}

/** `npm start -- --data DIR` passes the folder through to Electron as an argument. */
function dataDirArgument(argv: readonly string[]): string | undefined {
  const index = argv.indexOf('--data');
  return index >= 0 ? argv[index + 1] : undefined;
}

/** Exports go where the manager points (a USB stick, a share): downloads are blocked on a kiosk. */
async function saveWithFolderChooser(fileName: string, content: string): Promise<string | null> {
  const chosen = await dialog.showOpenDialog({ title: 'Save to folder', properties: ['openDirectory', 'createDirectory'] });
  const folder = chosen.canceled ? undefined : chosen.filePaths[0];
  if (!folder) return null;
  const file = path.join(folder, fileName);
  await fs.writeFile(file, content, { mode: 0o600 });
  return file;
}
