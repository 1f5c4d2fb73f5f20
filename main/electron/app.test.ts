import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNEL } from '../../preload/contract.std.ts';
import { buildOutput } from '../paths/build-output.node.ts';
import { fakeElectron, fakeKioskServices, FakeWebContents } from './fake-electron.test-support.ts';

/**
 * app.main.ts is the Electron entry: it does its work on import. Each test imports it afresh
 * against its own fake `electron` and fake services, and waits until start-up has finished.
 */
async function runApp({ singleInstanceLock = true, env = {} as Record<string, string> } = {}) {
  const electron = fakeElectron({ singleInstanceLock });
  const fake = fakeKioskServices();
  const startKioskServices = vi.fn(async () => fake.services);
  for (const [name, value] of Object.entries({ KIOSK_DEV: '', KIOSK_DATA_DIR: undefined, ...env })) vi.stubEnv(name, value);
  vi.resetModules();
  vi.doMock('electron', () => electron.module);
  vi.doMock('../kiosk-services.node.ts', () => ({ startKioskServices }));
  await import('./app.main.ts');
  if (singleInstanceLock) await vi.waitFor(() => expect(electron.windows[0]?.loadURL).toHaveBeenCalled());
  return { ...electron, ...fake, startKioskServices, window: electron.windows[0]! };
}

afterEach(() => {
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

  it('quits at once, starting nothing, when another instance holds the lock', async () => {
    const { app, startKioskServices, windows } = await runApp({ singleInstanceLock: false });
    expect(app.quit).toHaveBeenCalledOnce();
    expect(app.whenReady).not.toHaveBeenCalled();
    expect(startKioskServices).not.toHaveBeenCalled();
    expect(windows).toHaveLength(0);
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
    expect(window.options).toMatchObject({ kiosk: true, fullscreen: true, show: false });
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

  it('loads the app origin and shows the window only when it is ready to show', async () => {
    const { window } = await runApp();
    expect(window.loadURL).toHaveBeenCalledWith('app://kiosk/index.html');
    expect(window.show).not.toHaveBeenCalled();
    window.emit('ready-to-show');
    expect(window.show).toHaveBeenCalledOnce();
  });

  it('keeps the display awake', async () => {
    const { powerSaveBlocker } = await runApp();
    expect(powerSaveBlocker.start).toHaveBeenCalledWith('prevent-display-sleep');
  });

  it('brings the kiosk window back when a second instance starts', async () => {
    const { app, window } = await runApp();
    window.isMinimized.mockReturnValue(true);
    app.emit('second-instance', {}, ['/opt/kiosk']);
    expect(window.restore).toHaveBeenCalledOnce();
    expect(window.focus).toHaveBeenCalledOnce();
  });

  it('reopens the portal session a deep link names, from a second instance or open-url', async () => {
    const { app, events } = await runApp();
    const opened: unknown[] = [];
    events.subscribe((event, payload) => opened.push([event, payload]));
    expect(app.setAsDefaultProtocolClient).toHaveBeenCalledWith('loyalty-kiosk');
    const uuid = '3f2b8c1e-9a4d-4e6f-8b1a-2c3d4e5f6a7b';
    app.emit('second-instance', {}, ['/opt/kiosk', `loyalty-kiosk://portal-session/${uuid}`]);
    app.emit('open-url', { preventDefault() {} }, 'loyalty-kiosk://portal-session/not-a-uuid');
    app.emit('open-url', { preventDefault() {} }, `loyalty-kiosk://portal-session/${uuid}`);
    expect(opened).toEqual([
      ['openPortalSession', { uuid }],
      ['openPortalSession', { uuid }],
    ]);
  });

  it('starts the services in the folder `--data` names', async () => {
    const argv = process.argv;
    process.argv = [...argv, '--data', '/srv/kiosk-data'];
    try {
      const { startKioskServices } = await runApp();
      expect(startKioskServices).toHaveBeenCalledWith(expect.objectContaining({ dataDir: '/srv/kiosk-data' }));
    } finally {
      process.argv = argv;
    }
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
