import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { INVOKE_CHANNEL } from '../../common/contract.std.ts';
import { buildOutput } from '../paths/build-output.node.ts';
import { startKioskServices as realStartKioskServices, type KioskServicesOptions } from '../kiosk-services.node.ts';
import { runKioskctlProcess } from '../kioskctl/kioskctl-process.node.ts';
import { type ElectronKioskParts, startElectronKiosk } from './electron-kiosk.main.ts';
import { fakeElectron, fakeKioskServices, FakeWebContents } from './fake-electron.test-support.ts';
import { makeFolderReadOnly } from '../../test/support/read-only-folder.node.ts';

/**
 * The Electron kiosk (startElectronKiosk, which app.main.ts calls with the process's own parts):
 * each test starts it with its own fake `electron` and fake services, with its own command line
 * and environment, and (unless it holds `ready` back or runs kioskctl) waits until start-up has
 * finished.
 */
async function runApp({
  singleInstanceLock = true,
  env = {} as Record<string, string>,
  args = [] as string[],
  userData = '/fake/userData',
  heldUserData = undefined as Set<string> | undefined,
  ready = undefined as Promise<void> | undefined,
  /** The real kiosk services, for start-ups that fail; the app is not waited for. */
  realServices = false,
  isPackaged = false,
} = {}) {
  const electron = fakeElectron({ singleInstanceLock, userData, heldUserData, isPackaged });
  if (ready) electron.app.whenReady.mockReturnValue(ready);
  const fake = fakeKioskServices();
  const startKioskServices = vi.fn(async () => fake.services);
  // kioskctl reads the environment itself.
  for (const [name, value] of Object.entries({ KIOSK_DEV: '', KIOSK_DATA_DIR: undefined, ...env })) vi.stubEnv(name, value);
  startElectronKiosk({
    electron: electron.module as unknown as ElectronKioskParts['electron'],
    argv: ['/opt/kiosk/loyalty-kiosk', ...args],
    env: { ...process.env },
    execPath: process.execPath,
    platform: process.platform,
    startKioskServices: realServices ? realStartKioskServices : startKioskServices,
    runKioskctlProcess,
    packagedUpdater: () => null,
  });
  const starts = singleInstanceLock && !heldUserData && !ready && !realServices && !args.includes('--kioskctl') && !args.includes('--out-of-service');
  if (starts) await vi.waitFor(() => expect(electron.windows[0]?.loadURL).toHaveBeenCalled());
  return { ...electron, ...fake, startKioskServices, window: electron.windows[0]! };
}

/** The events main sends the renderer, as [name, payload]. */
function sentEvents(events: ReturnType<typeof fakeKioskServices>['events']): unknown[] {
  const sent: unknown[] = [];
  events.subscribe((event, payload) => sent.push([event, payload]));
  return sent;
}

/** Everything written to stderr from now until the test ends. */
function captureStderr(): string[] {
  const written: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  return written;
}

const uuid = '3f2b8c1e-9a4d-4e6f-8b1a-2c3d4e5f6a7b';
const link = `loyalty-kiosk://portal-session/${uuid}`;

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.doUnmock('electron');
  vi.doUnmock('../kiosk-services.node.ts');
});

describe('Electron app: before ready', () => {
  it('registers app:// as a privileged, secure standard scheme before waiting for ready', async () => {
    const { protocol, app } = await runApp();
    expect(protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }),
    ]);
    expect(protocol.registerSchemesAsPrivileged.mock.invocationCallOrder[0]!).toBeLessThan(app.whenReady.mock.invocationCallOrder[0]!);
  });

  it('keeps Chromium out of the OS keyring, before ready, for the kiosk and the out-of-service page alike (#34 §1)', async () => {
    for (const args of [[], ['--out-of-service', '/opt/page.html']]) {
      const { app } = await runApp({ args });
      expect(app.commandLine.appendSwitch).toHaveBeenCalledWith('password-store', 'basic');
      await vi.waitFor(() => expect(app.whenReady).toHaveBeenCalled());
      expect(app.commandLine.appendSwitch.mock.invocationCallOrder[0]!).toBeLessThan(app.whenReady.mock.invocationCallOrder[0]!);
    }
  });

  it('exits at once with a clear line and code 75, starting nothing, when another instance holds the lock', async () => {
    const written = captureStderr();
    const { app, startKioskServices, windows } = await runApp({ singleInstanceLock: false });
    expect(app.exit).toHaveBeenCalledExactlyOnceWith(75);
    expect(written.join('')).toBe('Loyalty Kiosk cannot start: another kiosk is already running on the data folder /fake/userData\n');
    expect(app.whenReady).not.toHaveBeenCalled();
    expect(startKioskServices).not.toHaveBeenCalled();
    expect(windows).toHaveLength(0);
  });

  it('keys the single-instance lock by the data folder: kiosks on two folders both run, a second on one folder does not', async () => {
    const held = new Set<string>();
    const first = await runApp({ heldUserData: held, args: ['--data', '/srv/kiosk-a'] });
    const other = await runApp({ heldUserData: held, env: { KIOSK_DATA_DIR: '/srv/kiosk-b' } });
    const written = captureStderr();
    const same = await runApp({ heldUserData: held, args: ['--data', '/srv/kiosk-a'] });
    for (const started of [first, other]) await vi.waitFor(() => expect(started.startKioskServices).toHaveBeenCalled());
    expect(first.app.setPath).toHaveBeenCalledWith('userData', '/srv/kiosk-a');
    expect(other.startKioskServices).toHaveBeenCalledWith(expect.objectContaining({ dataDir: '/srv/kiosk-b' }));
    expect(same.app.exit).toHaveBeenCalledExactlyOnceWith(75);
    expect(same.startKioskServices).not.toHaveBeenCalled();
    expect(written.join('')).toMatch(/already running on the data folder \/srv\/kiosk-a\n$/);
  });
});

describe('Electron app: a start that cannot go on', () => {
  const dataDirs: string[] = [];
  afterEach(() => {
    for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  const dataDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-electron-start-'));
    dataDirs.push(dir);
    return dir;
  };

  it('on a read-only data folder: one line, exit code 78, no stack and no window', async () => {
    const dir = dataDir();
    const restore = makeFolderReadOnly(dir);
    const written = captureStderr();
    try {
      const { app, windows } = await runApp({ realServices: true, env: { KIOSK_DATA_DIR: dir } });
      await vi.waitFor(() => expect(app.exit).toHaveBeenCalledExactlyOnceWith(78));
      expect(windows).toHaveLength(0);
    } finally {
      restore();
    }
    expect(written.join('')).toMatch(new RegExp(`^Loyalty Kiosk cannot start: the data folder ${dir} cannot be written \\((EPERM|EACCES)\\)[^\n]*\n$`));
  });

  it('on a damaged demo state: one line, exit code 78, nothing of the file (it holds demo credentials) on the console', async () => {
    const dir = dataDir();
    fs.mkdirSync(path.join(dir, 'sandbox'));
    const secret = 'sk_demo_do_not_print_me';
    fs.writeFileSync(path.join(dir, 'sandbox', 'state.json'), `{"version":1,"credentials":{"api_key":"${secret}"`);
    const written = captureStderr();
    const { app } = await runApp({ realServices: true, args: ['--data', dir] });
    await vi.waitFor(() => expect(app.exit).toHaveBeenCalledExactlyOnceWith(78), { timeout: 10_000 });
    expect(written.join('')).toMatch(/^Loyalty Kiosk cannot start: the demo state .*state\.json is not valid JSON[^\n]*\n$/);
    expect(written.join('')).not.toContain(secret);
    // The folder is free again for the next start.
    expect(fs.existsSync(path.join(dir, 'kiosk.lock'))).toBe(false);
  });
});

describe('Electron app: --out-of-service PAGE (the boot session\'s notice, #34 §1)', () => {
  const page = '/opt/Loyalty Kiosk/boot/out-of-service.html';

  it('shows only the static page, full screen, with no script, no preload, no services and no lock', async () => {
    const { app, windows, startKioskServices, Menu } = await runApp({ args: ['--out-of-service', page] });
    await vi.waitFor(() => expect(windows[0]?.loadURL).toHaveBeenCalledWith('file:///opt/Loyalty%20Kiosk/boot/out-of-service.html'));
    expect(windows).toHaveLength(1);
    expect(windows[0]!.options).toMatchObject({ kiosk: true, fullscreen: true, show: true });
    expect(windows[0]!.options.webPreferences).toEqual({ sandbox: true, contextIsolation: true, nodeIntegration: false, javascript: false, devTools: false });
    expect(Menu.setApplicationMenu).toHaveBeenCalledWith(null);
    // The kiosk tried beside it must be able to take its lock and start.
    expect(app.requestSingleInstanceLock).not.toHaveBeenCalled();
    expect(startKioskServices).not.toHaveBeenCalled();
  });

  it('keeps the page where it is: no navigation, no new window', async () => {
    const { windows } = await runApp({ args: ['--out-of-service', page] });
    await vi.waitFor(() => expect(windows[0]?.loadURL).toHaveBeenCalled());
    expect(windows[0]!.webContents.emitCancellable('will-navigate', 'https://evil.example/')).toBe(true);
    expect(windows[0]!.webContents.openWindow('https://evil.example/')).toEqual({ action: 'deny' });
  });

  it.each([[[]], [['relative/page.html']], [['/etc/passwd']]])('refuses %j as the page, with a line and exit code 2, showing nothing', async (rest) => {
    const written = captureStderr();
    const { app, windows } = await runApp({ args: ['--out-of-service', ...rest] });
    expect(app.exit).toHaveBeenCalledExactlyOnceWith(2);
    expect(windows).toHaveLength(0);
    expect(written.join('')).toBe('loyalty-kiosk --out-of-service needs the absolute path of an .html page\n');
  });
});

describe('Electron app: once ready', () => {
  it('starts the services in KIOSK_DATA_DIR when set', async () => {
    const { startKioskServices } = await runApp({ env: { KIOSK_DATA_DIR: '/tmp/kiosk-data' } });
    expect(startKioskServices).toHaveBeenCalledWith(expect.objectContaining({ dataDir: '/tmp/kiosk-data' }));
  });

  it("starts the services in Electron's userData folder otherwise", async () => {
    const { startKioskServices } = await runApp();
    expect(startKioskServices).toHaveBeenCalledWith(expect.objectContaining({ dataDir: '/fake/userData' }));
  });

  it('serves app:// from the built renderer', async () => {
    const { protocol } = await runApp();
    expect(protocol.handlers.has('app')).toBe(true);
  });

  it('secures the default session', async () => {
    const { defaultSession } = await runApp();
    expect(defaultSession.checkPermission('media', 'app://kiosk')).toBe(true);
    expect(defaultSession.checkPermission('media', 'https://evil.example')).toBe(false);
    expect(defaultSession.emitCancellable('will-download', {}, {})).toBe(true);
  });

  it('answers the bridge only from the app', async () => {
    const { ipcMain, dispatch } = await runApp();
    await ipcMain.invoke(INVOKE_CHANNEL, { url: 'app://kiosk/index.html', parent: null }, 'getAppInfo', {});
    await expect(ipcMain.invoke(INVOKE_CHANNEL, { url: 'https://evil.example/', parent: null }, 'getAppInfo', {})).resolves.toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(dispatch).toHaveBeenCalledOnce();
  });

  it('opens one kiosk window with the preload and the hardened options', async () => {
    const { windows, window } = await runApp();
    expect(windows).toHaveLength(1);
    expect(window.options).toMatchObject({ kiosk: true, fullscreen: true, show: true, backgroundColor: '#000000' });
    expect(window.options.webPreferences).toMatchObject({ preload: buildOutput.electronPreload, contextIsolation: true, sandbox: true, devTools: false });
  });

  it('removes the application menu and its accelerators', async () => {
    const { Menu } = await runApp();
    expect(Menu.setApplicationMenu).toHaveBeenCalledWith(null);
  });

  it("hardens the window's web contents", async () => {
    const { window } = await runApp();
    expect(window.webContents.openWindow('https://evil.example/')).toEqual({ action: 'deny' });
    expect(window.webContents.emitCancellable('will-navigate', 'https://evil.example/')).toBe(true);
    expect(window.webContents.emitCancellable('before-input-event', { type: 'keyDown', key: 'F5' })).toBe(true);
  });

  it('hardens any other web contents created later', async () => {
    const { app } = await runApp();
    const later = new FakeWebContents();
    app.emit('web-contents-created', {}, later);
    expect(later.openWindow('https://evil.example/')).toEqual({ action: 'deny' });
  });

  it('loads the app origin into the window it shows at once (black, the page\'s boot cover over it)', async () => {
    const { window } = await runApp();
    expect(window.loadURL).toHaveBeenCalledWith('app://kiosk/index.html');
    // Shown by its options from the first frame, not held back until ready-to-show.
    expect(window.options).toMatchObject({ show: true, backgroundColor: '#000000' });
  });

  it('keeps the display awake', async () => {
    const { powerSaveBlocker } = await runApp();
    expect(powerSaveBlocker.start).toHaveBeenCalledWith('prevent-display-sleep');
    expect([...powerSaveBlocker.active.values()]).toEqual(['prevent-display-sleep']);
  });

  it('lets the display sleep while the kiosk sleeps (quiet hours), and keeps it awake again on wake', async () => {
    const { powerSaveBlocker, startKioskServices } = await runApp();
    const [options] = startKioskServices.mock.calls[0] as unknown as [KioskServicesOptions];
    const display = options.display!;
    display.allowDisplaySleep(true);
    expect(powerSaveBlocker.active.size).toBe(0);
    display.allowDisplaySleep(true);
    expect(powerSaveBlocker.stop).toHaveBeenCalledOnce();

    display.allowDisplaySleep(false);
    display.allowDisplaySleep(false);
    expect([...powerSaveBlocker.active.values()]).toEqual(['prevent-display-sleep']);
    expect(powerSaveBlocker.start).toHaveBeenCalledTimes(2);
  });

  it('brings the kiosk window back when a second instance starts', async () => {
    const { app, window } = await runApp();
    window.isMinimized.mockReturnValue(true);
    app.emit('second-instance', {}, ['/opt/kiosk']);
    expect(window.restore).toHaveBeenCalledOnce();
    expect(window.focus).toHaveBeenCalledOnce();
  });

  it('reopens the portal session a deep link names, from a second instance or open-url, once the renderer has loaded', async () => {
    const { app, events, window } = await runApp();
    const opened = sentEvents(events);
    expect(app.setAsDefaultProtocolClient).toHaveBeenCalledWith('loyalty-kiosk');
    app.emit('will-finish-launching');
    app.emit('second-instance', {}, ['/opt/kiosk', link]);
    expect(opened).toEqual([]);
    window.webContents.emit('did-finish-load');
    expect(opened).toEqual([['openPortalSession', { uuid }]]);
    expect(app.emitCancellable('open-url', 'loyalty-kiosk://portal-session/not-a-uuid')).toBe(true);
    app.emit('open-url', { preventDefault() {} }, link);
    expect(opened).toEqual([
      ['openPortalSession', { uuid }],
      ['openPortalSession', { uuid }],
    ]);
  });

  it('opens the portal session a cold launch names in its arguments, once the renderer has loaded', async () => {
    const { events, window } = await runApp({ args: ['--no-sandbox', link] });
    const opened = sentEvents(events);
    expect(opened).toEqual([]);
    window.webContents.emit('did-finish-load');
    expect(opened).toEqual([['openPortalSession', { uuid }]]);
  });

  it('hears a macOS launch link that arrives before ready, and opens it once the renderer has loaded', async () => {
    let becomeReady!: () => void;
    const { app, events, windows } = await runApp({ ready: new Promise((resolve) => (becomeReady = resolve)) });
    const opened = sentEvents(events);
    app.emit('will-finish-launching');
    app.emit('open-url', { preventDefault() {} }, link);
    becomeReady();
    await vi.waitFor(() => expect(windows[0]?.loadURL).toHaveBeenCalled());
    expect(opened).toEqual([]);
    windows[0]!.webContents.emit('did-finish-load');
    expect(opened).toEqual([['openPortalSession', { uuid }]]);
  });

  it('starts the services in the folder `--data` names', async () => {
    const { startKioskServices } = await runApp({ args: ['--data', '/srv/kiosk-data'] });
    expect(startKioskServices).toHaveBeenCalledWith(expect.objectContaining({ dataDir: '/srv/kiosk-data' }));
  });

  it('saves console exports to the folder the manager chooses, and nothing when they cancel', async () => {
    const { startKioskServices, dialog } = await runApp();
    const host = (startKioskServices.mock.calls[0] as unknown as [{ host: { saveFile(name: string, content: string): Promise<string | null> } }])[0].host;
    await expect(host.saveFile('settings.json', '{}')).resolves.toBeNull();
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-export-'));
    dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: [folder] });
    await expect(host.saveFile('settings.json', '{"a":1}')).resolves.toBe(path.join(folder, 'settings.json'));
    expect(fs.readFileSync(path.join(folder, 'settings.json'), 'utf8')).toBe('{"a":1}');
  });

  it('quits when the window closes, holding the quit until the services have closed', async () => {
    const { app, close } = await runApp();
    app.emit('window-all-closed');
    expect(app.quit).toHaveBeenCalledOnce();
    const quitting = { preventDefault: vi.fn() };
    app.emit('before-quit', quitting);
    expect(quitting.preventDefault).toHaveBeenCalledOnce();
    expect(close).toHaveBeenCalledOnce();
    // Closed: the quit goes on, and this time nothing holds it.
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(2));
    const again = { preventDefault: vi.fn() };
    app.emit('before-quit', again);
    expect(again.preventDefault).not.toHaveBeenCalled();
    expect(close).toHaveBeenCalledOnce();
  });

  it('installs an update only after the services have closed (every lock released), through the ordinary quit', async () => {
    const { app, close, startKioskServices } = await runApp();
    type UpdateOption = { updater: unknown; offNote: string; quitToInstall(install: () => void): void };
    const update = (startKioskServices.mock.calls[0] as unknown as [{ update: UpdateOption }])[0].update;
    // Not packaged (as in this fake): nothing to replace, and the state says so.
    expect(update.updater).toBeNull();
    expect(update.offNote).toContain('not a packaged app');
    let releaseClose = () => {};
    close.mockImplementation(() => new Promise<void>((resolve) => (releaseClose = resolve)));
    const install = vi.fn();
    update.quitToInstall(install);
    expect(app.quit).toHaveBeenCalledOnce();
    app.emit('before-quit', { preventDefault: vi.fn() });
    expect(close).toHaveBeenCalledOnce();
    expect(install).not.toHaveBeenCalled();
    releaseClose();
    await vi.waitFor(() => expect(install).toHaveBeenCalledOnce());
    expect(app.quit).toHaveBeenCalledTimes(2);
  });

  it('restarts from the console as a fresh process, and quits (leaving kiosk mode) through the same closing path', async () => {
    const { app, startKioskServices } = await runApp();
    const host = (startKioskServices.mock.calls[0] as unknown as [{ host: { restart(): void; quit(): void } }])[0].host;
    host.restart();
    expect(app.relaunch).toHaveBeenCalledOnce();
    expect(app.quit).toHaveBeenCalledOnce();
    host.quit();
    expect(app.relaunch).toHaveBeenCalledOnce();
    expect(app.quit).toHaveBeenCalledTimes(2);
  });

  it('gives the fleet a reload of the kiosk window\'s page and a PNG capture of it', async () => {
    const { startKioskServices, window } = await runApp();
    const host = (startKioskServices.mock.calls[0] as unknown as [{ host: { reload(): void; screenshot(): Promise<Buffer> } }])[0].host;
    host.reload();
    expect(window.webContents.reload).toHaveBeenCalledOnce();
    window.webContents.shownPng = Buffer.from('the attract screen as a PNG');
    await expect(host.screenshot()).resolves.toEqual(Buffer.from('the attract screen as a PNG'));
    expect(window.webContents.capturePage).toHaveBeenCalledOnce();
    window.webContents.destroy();
    expect(() => host.reload()).toThrow(/not open/);
  });

  it('restarts without the deep link it was launched with: that visit is over', async () => {
    const { app, startKioskServices } = await runApp({ args: ['--data', '/srv/kiosk-data', link] });
    const host = (startKioskServices.mock.calls[0] as unknown as [{ host: { restart(): void } }])[0].host;
    host.restart();
    expect(app.relaunch).toHaveBeenCalledWith({ args: ['--data', '/srv/kiosk-data'] });
  });

  it('keeps the kiosk window open against a close from outside the page (Alt+F4), until the app quits', async () => {
    const { app, window } = await runApp();
    expect(window.emitCancellable('close')).toBe(true);
    app.emit('before-quit', { preventDefault() {} });
    expect(window.emitCancellable('close')).toBe(false);
  });

  it('never holds up Windows ending the session (no before-quit comes then)', async () => {
    const { window, app } = await runApp();
    window.emit('session-end', {});
    expect(window.emitCancellable('close')).toBe(false);
    expect(app.quit).not.toHaveBeenCalled();
  });

  it('quits through app.quit (services close first) when Linux or macOS shuts down, delaying the shutdown for it', async () => {
    const { powerMonitor, app } = await runApp();
    expect(powerMonitor.emitCancellable('shutdown')).toBe(true);
    expect(app.quit).toHaveBeenCalled();
  });
});

describe('Electron app: --kioskctl', () => {
  const dataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-electron-ctl-'));

  /** Runs `loyalty-kiosk --kioskctl ...args` and resolves with the exit code and what it wrote. */
  async function runKioskctl(args: string[], options: { env?: Record<string, string>; userData?: string; isPackaged?: boolean } = {}) {
    const written: string[] = [];
    const capture = (text: string | Uint8Array) => void written.push(String(text));
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((text) => (capture(text), true));
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((text) => (capture(text), true));
    try {
      const run = await runApp({
        args: ['--kioskctl', ...args],
        env: { KIOSK_PROVISIONING_FILE: '/nonexistent/provisioning.json', ...options.env },
        userData: options.userData,
        isPackaged: options.isPackaged,
      });
      await vi.waitFor(() => expect(run.app.exit).toHaveBeenCalled());
      return { ...run, code: run.app.exit.mock.calls[0]![0], output: written.join('') };
    } finally {
      stdout.mockRestore();
      stderr.mockRestore();
    }
  }

  it('runs the command in the --data folder and exits with its code, with no lock, services or window', async () => {
    const dir = dataDir();
    const { code, output, app, windows, startKioskServices } = await runKioskctl(['--data', dir, 'config', 'set', 'kiosk.modes', 'vouchers']);
    expect(code).toBe(0);
    expect(output).toBe('kiosk.modes = ["vouchers"]\n');
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).kiosk.modes).toEqual(['vouchers']);
    expect(app.requestSingleInstanceLock).not.toHaveBeenCalled();
    expect(app.whenReady).not.toHaveBeenCalled();
    expect(startKioskServices).not.toHaveBeenCalled();
    expect(windows).toHaveLength(0);
  });

  it('passes a refusal on as exit code 2, changing nothing', async () => {
    const dir = dataDir();
    const { code, output } = await runKioskctl(['--data', dir, 'config', 'set', 'kiosk.modes', 'casino']);
    expect(code).toBe(2);
    expect(output).toMatch(/^kioskctl: kiosk\.modes/);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).kiosk.modes).toEqual(['regular']);
  });

  it('uses KIOSK_DATA_DIR, else the userData folder the kiosk itself uses', async () => {
    const fromEnv = dataDir();
    await runKioskctl(['config', 'set', 'idle.timeoutSeconds', '90'], { env: { KIOSK_DATA_DIR: fromEnv } });
    expect(JSON.parse(fs.readFileSync(path.join(fromEnv, 'config.json'), 'utf8')).idle.timeoutSeconds).toBe(90);
    const userData = dataDir();
    fs.writeFileSync(path.join(userData, 'config.json'), JSON.stringify({ idle: { timeoutSeconds: 75 } }));
    const { output } = await runKioskctl(['config', 'get', 'idle.timeoutSeconds'], { userData });
    expect(output).toBe('75\n');
  });

  describe('autostart enable from the packaged app', () => {
    /** An installed app as electron-builder lays it out: the executable, and autostart/ beside it. */
    function installedApp() {
      const installDir = path.join(dataDir(), 'Loyalty Kiosk');
      fs.cpSync(path.join(buildOutput.root, 'build/linux'), path.join(installDir, 'autostart'), { recursive: true });
      const executable = path.join(installDir, 'loyalty-kiosk');
      const execPath = process.execPath;
      process.execPath = executable;
      onTestFinished(() => {
        process.execPath = execPath;
      });
      return { installDir, executable, configHome: dataDir() };
    }
    const installed = (configHome: string) => ({
      unit: fs.readFileSync(path.join(configHome, 'systemd/user/loyalty-kiosk.service'), 'utf8'),
      entry: fs.readFileSync(path.join(configHome, 'autostart/loyalty-kiosk.desktop'), 'utf8'),
    });

    it('writes units that start the installed executable, from the install folder\'s autostart files; status shows them, disable removes them; each twice', async () => {
      const { executable, configHome } = installedApp();
      const env = { XDG_CONFIG_HOME: configHome, APPIMAGE: '' };
      for (let round = 0; round < 2; round++) {
        const { code } = await runKioskctl(['autostart', 'enable'], { isPackaged: true, env });
        expect(code).toBe(0);
        const { unit, entry } = installed(configHome);
        expect(unit).toContain(`\nExecStart="${executable}"\n`);
        expect(entry).toContain(`\nExec="${executable}"\n`);
      }
      const status = await runKioskctl(['autostart', 'status'], { isPackaged: true, env });
      expect(status.output).toMatch(/loyalty-kiosk\.service\s+installed\s+\S*systemd\/user\/loyalty-kiosk\.service/);
      expect(status.output).toMatch(/loyalty-kiosk\.desktop\s+installed\s+\S*autostart\/loyalty-kiosk\.desktop/);
      for (let round = 0; round < 2; round++) expect((await runKioskctl(['autostart', 'disable'], { isPackaged: true, env })).code).toBe(0);
      expect(fs.existsSync(path.join(configHome, 'systemd/user/loyalty-kiosk.service'))).toBe(false);
      expect(fs.existsSync(path.join(configHome, 'autostart/loyalty-kiosk.desktop'))).toBe(false);
    });

    it('an AppImage\'s units start the AppImage file ($APPIMAGE), not the mount it runs from', async () => {
      const { configHome } = installedApp();
      const appImage = '/home/kiosk/Applications/Loyalty-Kiosk-0.1.0.AppImage';
      await runKioskctl(['autostart', 'enable'], { isPackaged: true, env: { XDG_CONFIG_HOME: configHome, APPIMAGE: appImage } });
      const { unit, entry } = installed(configHome);
      expect(unit).toContain(`\nExecStart="${appImage}"\n`);
      expect(entry).toContain(`\nExec="${appImage}"\n`);
    });
  });
});

describe('Electron app: development (KIOSK_DEV=1)', () => {
  it('opens a normal window with devtools and keeps the menu', async () => {
    const { window, Menu } = await runApp({ env: { KIOSK_DEV: '1' } });
    expect(window.options).toMatchObject({ kiosk: false, fullscreen: false });
    expect(window.options.webPreferences).toMatchObject({ devTools: true, contextIsolation: true, sandbox: true });
    expect(Menu.setApplicationMenu).not.toHaveBeenCalled();
  });

  it('lets reload and devtools shortcuts through', async () => {
    const { window } = await runApp({ env: { KIOSK_DEV: '1' } });
    expect(window.webContents.emitCancellable('before-input-event', { type: 'keyDown', key: 'F5' })).toBe(false);
  });
});
