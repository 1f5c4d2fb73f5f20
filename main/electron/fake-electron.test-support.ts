import { EventEmitter } from 'node:events';
import { defaultConfig } from '../../common/config-schema.std.ts';
import http from 'node:http';
import { createRequire } from 'node:module';
import { vi } from 'vitest';
import type { BrowserWindow, BrowserWindowConstructorOptions, IpcMain, IpcMainInvokeEvent, Protocol, Session, WebContents } from 'electron';
import { EventBus } from '../bridge/event-bus.std.ts';
import { KioskActivity } from '../activity/kiosk-activity.std.ts';
import { VisitInterruptions } from '../supervision/visit-interruptions.std.ts';
import type { KioskServices } from '../kiosk-services.node.ts';
import type { Logger } from '../logging/logger.std.ts';
import { recordingLogger as recordLines, type LogLine } from '../../test/support/factories.std.ts';

/**
 * Just enough of Electron's main-process API to drive the kiosk's Electron code in plain Node,
 * where no Electron binary exists. Handlers are recorded so tests can call them as Electron would.
 */

type PermissionRequestHandler = NonNullable<Parameters<Session['setPermissionRequestHandler']>[0]>;
type PermissionCheckHandler = NonNullable<Parameters<Session['setPermissionCheckHandler']>[0]>;
type Permission = Parameters<PermissionRequestHandler>[1];
type WindowOpenHandler = Parameters<WebContents['setWindowOpenHandler']>[0];
type InvokeListener = (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown;
type ProtocolHandler = Parameters<Protocol['handle']>[1];

/** An emitter whose events, like Electron's, carry a first argument a handler may cancel. */
class CancellableEmitter extends EventEmitter {
  /** Emits `name` the way Electron does; true when a handler called `preventDefault()`. */
  emitCancellable(name: string, ...args: unknown[]): boolean {
    let prevented = false;
    this.emit(name, { preventDefault: () => (prevented = true) }, ...args);
    return prevented;
  }
}

let nextWebContentsId = 1;

export class FakeWebContents extends CancellableEmitter {
  readonly id = nextWebContentsId++;
  windowOpenHandler: WindowOpenHandler | null = null;
  readonly reload = vi.fn();
  readonly forcefullyCrashRenderer = vi.fn();
  readonly closeDevTools = vi.fn();
  readonly send = vi.fn();
  /** What the page shows, as Electron's NativeImage hands it out (set `shownPng` to change it). */
  shownPng = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  readonly capturePage = vi.fn(async () => ({ toPNG: () => this.shownPng }));
  #destroyed = false;
  readonly isDestroyed = vi.fn(() => this.#destroyed);

  setWindowOpenHandler(handler: WindowOpenHandler) {
    this.windowOpenHandler = handler;
  }

  /** What `window.open(url)` in the page would get. */
  openWindow(url: string) {
    if (!this.windowOpenHandler) throw new Error('no window open handler installed');
    return this.windowOpenHandler({ url } as Parameters<WindowOpenHandler>[0]);
  }

  destroy() {
    this.#destroyed = true;
    this.emit('destroyed');
  }

  get electron(): WebContents {
    return this as unknown as WebContents;
  }
}

export class FakeSession extends CancellableEmitter {
  permissionRequestHandler: PermissionRequestHandler | null = null;
  permissionCheckHandler: PermissionCheckHandler | null = null;

  setPermissionRequestHandler(handler: PermissionRequestHandler | null) {
    this.permissionRequestHandler = handler;
  }

  setPermissionCheckHandler(handler: PermissionCheckHandler | null) {
    this.permissionCheckHandler = handler;
  }

  /** A page at `requestingUrl` asks for `permission`; resolves with the handler's answer. */
  /** `mediaTypes` as Chromium reports them for a `media` request (the camera alone by default). */
  requestPermission(permission: Permission, requestingUrl: string, mediaTypes: Array<'video' | 'audio'> = ['video'], isMainFrame = true): Promise<boolean> {
    const handler = this.permissionRequestHandler;
    if (!handler) throw new Error('no permission request handler installed');
    const details = { requestingUrl, isMainFrame, ...(permission === 'media' ? { mediaTypes } : {}) };
    return new Promise((resolve) =>
      handler(new FakeWebContents().electron, permission, resolve, details as Parameters<PermissionRequestHandler>[3]),
    );
  }

  /** Chromium checks whether `requestingOrigin` already holds `permission`. */
  checkPermission(permission: Permission, requestingOrigin: string, isMainFrame = true): boolean {
    const handler = this.permissionCheckHandler;
    if (!handler) throw new Error('no permission check handler installed');
    return handler(null, permission, requestingOrigin, { requestingUrl: requestingOrigin, isMainFrame } as Parameters<PermissionCheckHandler>[3]);
  }

  get electron(): Session {
    return this as unknown as Session;
  }
}

/** The frame a call comes from: `parent` is null for a top frame. */
export interface SenderFrame {
  url: string;
  parent: SenderFrame | null;
}

export class FakeIpcMain {
  readonly handlers = new Map<string, InvokeListener>();

  handle(channel: string, listener: InvokeListener) {
    this.handlers.set(channel, listener);
  }

  /** The window calls come from, unless a test names another with `invokeFrom`. */
  readonly sender = new FakeWebContents();

  /** `ipcRenderer.invoke(channel, ...args)` from `senderFrame` (null: the frame is gone). */
  invoke(channel: string, senderFrame: SenderFrame | null, ...args: unknown[]): Promise<unknown> {
    return this.invokeFrom(this.sender, channel, senderFrame, ...args);
  }

  /** The same, from the window `sender`. */
  async invokeFrom(sender: FakeWebContents, channel: string, senderFrame: SenderFrame | null, ...args: unknown[]): Promise<unknown> {
    const listener = this.handlers.get(channel);
    if (!listener) throw new Error(`no handler for ${channel}`);
    return listener({ senderFrame, sender: sender.electron } as unknown as IpcMainInvokeEvent, ...args);
  }

  get electron(): IpcMain {
    return this as unknown as IpcMain;
  }
}

export class FakeProtocol {
  readonly handlers = new Map<string, ProtocolHandler>();
  readonly registerSchemesAsPrivileged = vi.fn();

  handle(scheme: string, handler: ProtocolHandler) {
    this.handlers.set(scheme, handler);
  }

  /** What the renderer gets when it loads `url`. */
  async fetch(url: string): Promise<Response> {
    const handler = this.handlers.get(new URL(url).protocol.slice(0, -1));
    if (!handler) throw new Error(`no protocol handler for ${url}`);
    return handler(new Request(url));
  }

  get electron(): Protocol {
    return this as unknown as Protocol;
  }
}

/** The shared recording logger, its lines kept on the logger itself, where the Electron tests read them. */
export function recordingLogger(): Logger & { lines: LogLine[] } {
  const { logger, lines } = recordLines();
  return Object.assign(logger, { lines });
}

/** The services the Electron host carries, with a dispatcher that only records its calls. */
export function fakeKioskServices() {
  const logger = recordingLogger();
  const dispatch = vi.fn(async (_call: unknown, _input: unknown, _connection: unknown) => ({ ok: true as const, value: 'dispatched' }));
  const close = vi.fn(async () => {});
  const activity = new KioskActivity({ locksHeld: () => 0 });
  const endVisit = vi.fn(async () => {});
  const interruptions = new VisitInterruptions({ activity, endVisit, logger });
  // Settings of a kiosk already set up (not the demo, a PIN): nothing for a first run to say at start.
  const config = { get: () => defaultConfig(), isDemo: () => false };
  const services = { dataDir: '/nonexistent', dispatch, events: new EventBus(), logger, close, platformOrigin: () => null, activity, interruptions, config } as unknown as KioskServices;
  return { services, dispatch, logger, close, events: services.events, activity, endVisit };
}

export class FakeBrowserWindow extends CancellableEmitter {
  readonly webContents = new FakeWebContents();
  readonly show = vi.fn();
  readonly loadURL = vi.fn(async (_url: string) => {});
  readonly isMinimized = vi.fn(() => false);
  readonly restore = vi.fn();
  readonly focus = vi.fn();

  constructor(readonly options: BrowserWindowConstructorOptions) {
    super();
  }

  get electron(): BrowserWindow {
    return this as unknown as BrowserWindow;
  }
}

/** Electron's power-save blocker: `active` holds the blockers started and not yet stopped, by id. */
function fakePowerSaveBlocker() {
  let nextId = 1;
  const active = new Map<number, 'prevent-app-suspension' | 'prevent-display-sleep'>();
  return {
    active,
    start: vi.fn((type: 'prevent-app-suspension' | 'prevent-display-sleep') => {
      active.set(nextId, type);
      return nextId++;
    }),
    stop: vi.fn((id: number) => active.delete(id)),
  };
}

/**
 * Electron's modules as startElectronKiosk takes them (`fake.module`), and installFakeElectronForCommonJs
 * for electron-updater. Like Electron, a new window announces its web contents through the app's
 * `web-contents-created`.
 *
 * `heldUserData`: the userData folders whose single-instance lock other (fake) instances hold, as
 * Electron keys it; a granted lock is added. Without it the lock is simply `singleInstanceLock`.
 */
export function fakeElectron({
  singleInstanceLock = true,
  userData = '/fake/userData',
  heldUserData = undefined as Set<string> | undefined,
  version = '0.1.0',
  isPackaged = false,
} = {}) {
  // The OS's login item: what setLoginItemSettings stored is what getLoginItemSettings reads back.
  let openAtLogin = false;
  const app = Object.assign(new CancellableEmitter(), {
    isPackaged,
    commandLine: { appendSwitch: vi.fn() },
    setLoginItemSettings: vi.fn((settings: { openAtLogin?: boolean }) => {
      openAtLogin = settings.openAtLogin ?? openAtLogin;
    }),
    getLoginItemSettings: vi.fn(() => ({ openAtLogin })),
    requestSingleInstanceLock: vi.fn(() => {
      if (!heldUserData) return singleInstanceLock;
      if (heldUserData.has(userData)) return false;
      heldUserData.add(userData);
      return true;
    }),
    quit: vi.fn(),
    exit: vi.fn(),
    relaunch: vi.fn(),
    whenReady: vi.fn(async () => {}),
    setAsDefaultProtocolClient: vi.fn(() => true),
    getPath: vi.fn((name: string) => (name === 'userData' ? userData : `/fake/${name}`)),
    getVersion: () => version,
    getName: () => 'Loyalty Kiosk',
    getAppPath: () => '/fake/app',
    setPath: vi.fn((name: string, value: string) => {
      if (name === 'userData') userData = value;
    }),
  });
  const windows: FakeBrowserWindow[] = [];
  const BrowserWindow = vi.fn(function (options: BrowserWindowConstructorOptions) {
    const window = new FakeBrowserWindow(options);
    windows.push(window);
    app.emit('web-contents-created', {}, window.webContents);
    return window;
  });
  const ipcMain = new FakeIpcMain();
  const protocol = new FakeProtocol();
  const defaultSession = new FakeSession();
  const powerSaveBlocker = fakePowerSaveBlocker();
  const powerMonitor = new CancellableEmitter();
  const Menu = { setApplicationMenu: vi.fn() };
  const dialog = { showOpenDialog: vi.fn(async () => ({ canceled: true, filePaths: [] as string[] })) };
  const autoUpdater = new EventEmitter();
  return {
    app,
    windows,
    ipcMain,
    protocol,
    defaultSession,
    powerSaveBlocker,
    powerMonitor,
    Menu,
    dialog,
    autoUpdater,
    module: {
      app,
      BrowserWindow,
      ipcMain,
      protocol,
      session: { defaultSession, fromPartition: () => defaultSession },
      powerSaveBlocker,
      powerMonitor,
      Menu,
      dialog,
      net: { request: netRequest },
      autoUpdater,
    },
  };
}

/**
 * Electron's `net.request` on node:http (loopback test servers only): the same ClientRequest
 * events electron-updater listens to (`response`, `error`). Electron's own options (`session`,
 * `redirect`) mean nothing to Node and are dropped.
 */
function netRequest(options: http.RequestOptions & { session?: unknown; redirect?: string }): http.ClientRequest {
  const { session: _session, redirect: _redirect, ...nodeOptions } = options;
  // A fresh connection each time, as each Electron request is: no keep-alive socket piling up listeners.
  return http.request({ ...nodeOptions, agent: false });
}

/**
 * Makes `require('electron')` inside CommonJS packages (electron-updater) return `fake.module`
 * until the returned function is called: vi.mock reaches only the modules Vite loads, not those
 * node_modules load themselves.
 */
export function installFakeElectronForCommonJs(fake: { module: object }): () => void {
  const require = createRequire(import.meta.url);
  const id = require.resolve('electron');
  const before = require.cache[id];
  require.cache[id] = { id, filename: id, loaded: true, exports: fake.module } as NodeJS.Module;
  return () => {
    if (before) require.cache[id] = before;
    else delete require.cache[id];
  };
}
