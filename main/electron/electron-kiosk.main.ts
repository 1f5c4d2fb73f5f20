import fs from 'node:fs/promises';
import { firstRunNotice } from '../manager/setup-code.node.ts';
import path from 'node:path';
import type * as Electron from 'electron';
import { DEEP_LINK_SCHEME, PortalSessionLinks, portalSessionFromArgv, portalSessionFromDeepLink } from './deep-link.std.ts';
import type { runKioskctlProcess } from '../kioskctl/kioskctl-process.node.ts';
import { packagedAutostartSource } from '../autostart/autostart.node.ts';
import type { startKioskServices } from '../kiosk-services.node.ts';
import { EXIT } from '../process/exit-codes.std.ts';
import { startupFailure } from '../process/startup-error.std.ts';
import { writesToJournal } from '../process/journal-stream.node.ts';
import { appVersion, buildOutput } from '../paths/build-output.node.ts';
import { APP_ORIGIN } from '../security/app-origin.std.ts';
import { setOpenAtLogin } from './login-item.main.ts';
import { displaySleepControl } from './display-sleep.main.ts';
import type { Updater } from '../update/update-service.node.ts';
import { APP_SCHEME_PRIVILEGES, registerAppProtocol } from './app-protocol.main.ts';
import { forwardBridgeEvents, registerBridgeIpc } from './bridge-ipc.main.ts';
import { hardenWebContents, kioskWindowOptions } from './kiosk-window.main.ts';
import { showOutOfServicePage } from './out-of-service-window.main.ts';
import { framedCameraOf, installSessionSecurity } from './session-security.main.ts';
import { windowCommands } from './window-commands.main.ts';

const UNPACKAGED_NOTE = 'not a packaged app (npm start): nothing to update';

/** What the Electron kiosk is started with: Electron's modules, the process's command line and environment, and the parts it starts. */
export interface ElectronKioskParts {
  electron: Pick<typeof Electron, 'app' | 'BrowserWindow' | 'dialog' | 'ipcMain' | 'Menu' | 'powerMonitor' | 'powerSaveBlocker' | 'protocol' | 'session'>;
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  execPath: string;
  platform: NodeJS.Platform;
  startKioskServices: typeof startKioskServices;
  runKioskctlProcess: typeof runKioskctlProcess;
  /** electron-updater's updater for the installed package, or null (npm start). */
  packagedUpdater: () => Updater | null;
}

/** The Electron kiosk: `--kioskctl <command>`, `--out-of-service PAGE`, or the kiosk on its data folder (one per folder). */
export function startElectronKiosk(parts: ElectronKioskParts): void {
  const { app, protocol } = parts.electron;
  const { argv, env } = parts;
  const kioskctlAt = argv.indexOf('--kioskctl');
  if (kioskctlAt >= 0) {
    // `loyalty-kiosk --kioskctl <command>`: fleet tooling from the packaged app. Before the
    // single-instance lock (the kiosk itself may be running) and without any window.
    void parts
      .runKioskctlProcess(argv.slice(kioskctlAt + 1), {
        defaultDataDir: env.KIOSK_DATA_DIR ?? app.getPath('userData'),
        invocation: 'loyalty-kiosk --kioskctl',
        // The units start this installed app (or AppImage), not the deb's /usr/bin/loyalty-kiosk.
        autostart: app.isPackaged ? packagedAutostartSource(parts.execPath) : undefined,
      })
      .catch((error: unknown) => {
        // Unlike Node, Electron lives on after an unhandled rejection: say why, and fail.
        process.stderr.write(`kioskctl: ${error instanceof Error ? error.stack : String(error)}\n`);
        return EXIT.failed;
      })
      .then((code) => app.exit(code));
    return;
  }
  // Chromium's own store (cookies) stays out of the OS keyring: it keeps no passwords, and opening
  // the keyring at start could put an unlock prompt on a shop-floor screen (#34 §1). Before ready.
  app.commandLine.appendSwitch('password-store', 'basic');
  const outOfServiceAt = argv.indexOf('--out-of-service');
  if (outOfServiceAt >= 0) {
    showOutOfServicePage(parts.electron, argv[outOfServiceAt + 1]);
    return;
  }
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
  const dataDir = kioskDataDir(parts);
  // Electron keys its single-instance lock by the userData folder: making that the data folder
  // lets kiosks on different folders run side by side, and never two on one.
  if (dataDir !== app.getPath('userData')) app.setPath('userData', dataDir);
  if (!app.requestSingleInstanceLock()) {
    // The running kiosk has been told (second-instance) and comes to the front.
    process.stderr.write(`Loyalty Kiosk cannot start: another kiosk is already running on the data folder ${dataDir}\n`);
    app.exit(EXIT.alreadyRunning);
    return;
  }
  // A link that starts the kiosk comes in its arguments (Windows, Linux) or, on macOS, as an
  // open-url that may fire before ready; both are held until the renderer can show them.
  const portalSessions = new PortalSessionLinks();
  portalSessions.receive(portalSessionFromArgv(argv));
  app.on('will-finish-launching', () => {
    app.on('open-url', (event, url) => {
      event.preventDefault();
      portalSessions.receive(portalSessionFromDeepLink(url));
    });
  });
  start(parts, dataDir, portalSessions).catch((error: unknown) => {
    const failure = startupFailure(error);
    if (!failure) throw error;
    // One line for the admin, never a stack (nor a state file's content).
    process.stderr.write(failure.line);
    app.exit(failure.exitCode);
  });
}

/** KIOSK_DATA_DIR, else `--data DIR`, else Electron's userData folder; absolute, as setPath needs it. */
function kioskDataDir({ env, argv, electron }: ElectronKioskParts): string {
  return path.resolve(env.KIOSK_DATA_DIR ?? dataDirArgument(argv) ?? electron.app.getPath('userData'));
}

async function start(parts: ElectronKioskParts, dataDir: string, portalSessions: PortalSessionLinks) {
  const { app, BrowserWindow, ipcMain, Menu, powerMonitor, powerSaveBlocker, protocol, session } = parts.electron;
  const dev = parts.env.KIOSK_DEV === '1';
  await app.whenReady();
  // Set by an update that is about to be installed: the quit below runs it once the services closed.
  let installOnQuit: (() => void) | null = null;
  let window: Electron.BrowserWindow | null = null;
  const services = await parts.startKioskServices({
    dataDir,
    version: appVersion(),
    echoLogs: dev,
    keychainService: parts.env.KIOSK_KEYCHAIN_SERVICE,
    // The display stays awake, but while the kiosk sleeps (quiet hours).
    display: displaySleepControl(powerSaveBlocker),
    host: {
      // Through quit, not exit: the services close first, so held voucher locks are released.
      restart: () => {
        // Without the link it may have been launched with: that visit is over.
        app.relaunch({ args: parts.argv.slice(1).filter((arg) => portalSessionFromDeepLink(arg) === null) });
        app.quit();
      },
      quit: () => app.quit(),
      saveFile: (fileName, content) => saveWithFolderChooser(parts.electron.dialog, fileName, content),
      ...windowCommands(() => window),
    },
    update: {
      updater: parts.packagedUpdater(),
      offNote: UNPACKAGED_NOTE,
      // The ordinary quit: before-quit closes the services (every voucher lock released) first.
      quitToInstall: (install) => {
        installOnQuit = install;
        app.quit();
      },
      runningAppImage: parts.env.APPIMAGE ?? null,
    },
  });
  const logger = services.logger.child({ host: 'electron' });
  // To the terminal only, never the log: whoever started the kiosk sets it up.
  process.stdout.write(firstRunNotice(dataDir, services.config, writesToJournal(1)));

  registerAppProtocol(protocol, buildOutput.rendererDir, () => services.platformOrigin(), () => services.frameOrigins.list());
  installSessionSecurity(session.defaultSession, logger, framedCameraOf(services));
  registerBridgeIpc(ipcMain, services);
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, { dev, logger }));

  // The default menu's accelerators (reload, close, full screen) would be ways out of the kiosk.
  if (!dev) Menu.setApplicationMenu(null);
  window = new BrowserWindow(kioskWindowOptions({ preload: buildOutput.electronPreload, dev }));
  forwardBridgeEvents(window.webContents, services);

  // Windows and macOS: an installed kiosk comes back at login (Linux: kioskctl autostart enable).
  if (app.isPackaged && !dev) setOpenAtLogin(app, parts.platform, true);

  app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  // The renderer subscribes to events as it loads: links wait for that, or they would go unheard.
  window.webContents.once('did-finish-load', () =>
    portalSessions.openWith((uuid) => services.events.emit('openPortalSession', { uuid })),
  );
  app.on('second-instance', (_event, argv) => {
    if (window.isMinimized()) window.restore();
    window.focus();
    portalSessions.receive(portalSessionFromArgv(argv));
  });
  app.on('window-all-closed', () => app.quit());
  // Outside development only the kiosk itself ends the kiosk (console quit or restart, or the OS
  // quitting the app): a window manager's close (Alt+F4) would leave a shopper at the desktop.
  let quitting = false;
  if (!dev) {
    window.on('close', (event) => {
      if (!quitting) event.preventDefault();
    });
  }
  // The OS ending the session must never be held up by that guard. Windows sends no before-quit
  // then, only session-end; Linux and macOS announce the shutdown and wait for a clean quit.
  window.on('session-end', () => {
    quitting = true;
  });
  // Electron's typings leave out the event its docs give this handler (preventDefault delays the shutdown).
  (powerMonitor as NodeJS.EventEmitter).on('shutdown', (event: { preventDefault(): void }) => {
    event.preventDefault();
    app.quit();
  });
  // Electron does not wait for an async before-quit: hold the quit until the services have closed.
  let servicesClosed = false;
  app.on('before-quit', (event) => {
    quitting = true;
    if (servicesClosed) return;
    event.preventDefault();
    void services
      .close()
      .catch((error: unknown) => logger.error('closing the services failed', { error: String(error) }))
      .finally(() => {
        servicesClosed = true;
        // quitAndInstall starts the installer and quits by itself; app.quit() makes sure even if it failed.
        installOnQuit?.();
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
async function saveWithFolderChooser(dialog: Electron.Dialog, fileName: string, content: string): Promise<string | null> {
  const chosen = await dialog.showOpenDialog({ title: 'Save to folder', properties: ['openDirectory', 'createDirectory'] });
  const folder = chosen.canceled ? undefined : chosen.filePaths[0];
  if (!folder) return null;
  const file = path.join(folder, fileName);
  await fs.writeFile(file, content, { mode: 0o600 });
  return file;
}
