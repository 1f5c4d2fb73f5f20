import { describe, expect, it } from 'vitest';
import type { KeyInput } from '../security/escape-shortcuts.std.ts';
import { FakeWebContents, recordingLogger } from './fake-electron.test-support.ts';
import { hardenWebContents, kioskWindowOptions } from './kiosk-window.main.ts';

const PRELOAD = '/app/dist/preload/electron.preload.cjs';

describe('kiosk window options', () => {
  const options = kioskWindowOptions({ preload: PRELOAD, dev: false });
  const web = options.webPreferences!;

  it.each([
    ['contextIsolation', true],
    ['sandbox', true],
    ['nodeIntegration', false],
    ['nodeIntegrationInWorker', false],
    ['nodeIntegrationInSubFrames', false],
    ['webSecurity', true],
    ['allowRunningInsecureContent', false],
    ['webviewTag', false],
    ['navigateOnDragDrop', false],
    ['devTools', false],
  ] as const)('webPreferences.%s is %s', (setting, expected) => {
    expect(web[setting]).toBe(expected);
  });

  it('loads only the given preload', () => {
    expect(web.preload).toBe(PRELOAD);
  });

  it.each([
    ['kiosk', true],
    ['fullscreen', true],
    ['autoHideMenuBar', true],
    // Shown from the first frame: with the page's boot cover, the desktop never shows at start.
    ['show', true],
  ] as const)('window %s is %s', (setting, expected) => {
    expect(options[setting]).toBe(expected);
  });

  it('is black until the page paints (the boot cover is black too)', () => {
    expect(options.backgroundColor).toBe('#000000');
  });

  it('development gets a normal window with devtools, and the same isolation', () => {
    const dev = kioskWindowOptions({ preload: PRELOAD, dev: true });
    expect(dev.kiosk).toBe(false);
    expect(dev.fullscreen).toBe(false);
    expect(dev.webPreferences!.devTools).toBe(true);
    expect(dev.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
  });
});

const FOREIGN_URLS = [
  'https://evil.example/',
  'http://kiosk/index.html',
  'file:///etc/passwd',
  'app://kiosk.evil.example/index.html',
  'app://kiosk@evil/index.html',
  'app://kiosk:8080/index.html',
  'not a url',
];
const APP_URLS = ['app://kiosk/index.html', 'app://kiosk/#/vouchers'];

function hardened({ dev = false } = {}) {
  const contents = new FakeWebContents();
  const logger = recordingLogger();
  hardenWebContents(contents.electron, { dev, logger });
  return { contents, logger };
}

describe('hardened web contents: navigation', () => {
  it.each(FOREIGN_URLS)('will-navigate to %s is prevented', (url) => {
    expect(hardened().contents.emitCancellable('will-navigate', url)).toBe(true);
  });

  it.each(APP_URLS)('will-navigate within the app (%s) goes ahead', (url) => {
    expect(hardened().contents.emitCancellable('will-navigate', url)).toBe(false);
  });

  it('logs a blocked navigation by origin only (no path or query, which may carry codes)', () => {
    const { contents, logger } = hardened();
    contents.emitCancellable('will-navigate', 'https://evil.example/steal?card=4711');
    expect(logger.lines).toEqual([expect.objectContaining({ level: 'warn', fields: { event: 'navigation.blocked', url: 'https://evil.example' } })]);
  });

  it.each(FOREIGN_URLS)('will-redirect to %s is prevented', (url) => {
    expect(hardened().contents.emitCancellable('will-redirect', url)).toBe(true);
  });

  it.each(APP_URLS)('will-redirect within the app (%s) goes ahead', (url) => {
    expect(hardened().contents.emitCancellable('will-redirect', url)).toBe(false);
  });

  it.each(['https://evil.example/', 'app://kiosk/index.html'])('window.open(%s) is denied', (url) => {
    expect(hardened().contents.openWindow(url)).toEqual({ action: 'deny' });
  });

  it('will-attach-webview is prevented', () => {
    expect(hardened().contents.emitCancellable('will-attach-webview', {}, {})).toBe(true);
  });
});

describe('hardened web contents: escape shortcuts', () => {
  const key = (input: Omit<KeyInput, 'type'>): KeyInput => ({ type: 'keyDown', ...input });
  const ESCAPES: [string, KeyInput][] = [
    ['reload (F5)', key({ key: 'F5' })],
    ['reload (Ctrl+R)', key({ key: 'r', control: true })],
    ['close (Ctrl+W)', key({ key: 'w', control: true })],
    ['close (Alt+F4)', key({ key: 'F4', alt: true })],
    ['quit (Cmd+Q)', key({ key: 'q', meta: true })],
    ['full screen (F11)', key({ key: 'F11' })],
    ['full screen (Ctrl+Cmd+F)', key({ key: 'f', control: true, meta: true })],
    ['devtools (F12)', key({ key: 'F12' })],
    ['devtools (Ctrl+Shift+I)', key({ key: 'I', control: true, shift: true })],
  ];

  it.each(ESCAPES)('%s is prevented outside development', (_name, input) => {
    expect(hardened().contents.emitCancellable('before-input-event', input)).toBe(true);
  });

  it.each(ESCAPES)('%s is allowed in development', (_name, input) => {
    expect(hardened({ dev: true }).contents.emitCancellable('before-input-event', input)).toBe(false);
  });

  it('ordinary typing (a keyboard-wedge scanner) gets through', () => {
    const { contents } = hardened();
    for (const typed of ['4', 'a', 'Enter', 'Shift']) {
      expect(contents.emitCancellable('before-input-event', key({ key: typed }))).toBe(false);
    }
  });

  it('devtools that open anyway are closed outside development, not in development', () => {
    const kiosk = hardened().contents;
    kiosk.emit('devtools-opened');
    expect(kiosk.closeDevTools).toHaveBeenCalledOnce();
    const dev = hardened({ dev: true }).contents;
    dev.emit('devtools-opened');
    expect(dev.closeDevTools).not.toHaveBeenCalled();
  });
});

describe('hardened web contents: self-healing', () => {
  it('reloads a crashed renderer and logs why', () => {
    const { contents, logger } = hardened();
    contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 });
    expect(contents.reload).toHaveBeenCalledOnce();
    expect(logger.lines).toContainEqual(expect.objectContaining({ level: 'error', fields: { event: 'renderer.gone', reason: 'crashed', exitCode: 139 } }));
  });

  it('does not reload after a clean exit, but still logs it', () => {
    const { contents, logger } = hardened();
    contents.emit('render-process-gone', {}, { reason: 'clean-exit', exitCode: 0 });
    expect(contents.reload).not.toHaveBeenCalled();
    expect(logger.lines).toContainEqual(expect.objectContaining({ level: 'error', fields: { event: 'renderer.gone', reason: 'clean-exit', exitCode: 0 } }));
  });

  it('kills and reloads a hung renderer and logs it', () => {
    const { contents, logger } = hardened();
    contents.emit('unresponsive');
    expect(contents.forcefullyCrashRenderer).toHaveBeenCalledOnce();
    expect(contents.reload).toHaveBeenCalledOnce();
    expect(contents.forcefullyCrashRenderer.mock.invocationCallOrder[0]!).toBeLessThan(contents.reload.mock.invocationCallOrder[0]!);
    expect(logger.lines).toContainEqual(expect.objectContaining({ level: 'error', fields: { event: 'renderer.unresponsive' } }));
  });
});
