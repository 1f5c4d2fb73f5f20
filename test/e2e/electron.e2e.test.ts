import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOutput } from '../../main/paths/build-output.node.ts';

/**
 * The Electron executable of the installed `electron` package, resolved the way
 * `require('electron')` does, but without its download when the binary is missing (no network
 * here): the path, or why there is none.
 */
function installedElectron(): { binary: string; reason?: never } | { binary?: never; reason: string } {
  const packageDir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  const pathFile = path.join(packageDir, 'path.txt');
  const name = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8') : null;
  const overrideDir = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (!name && !overrideDir) return { reason: `the electron package has not downloaded its binary (no ${pathFile})` };
  const binary = path.join(overrideDir ?? path.join(packageDir, 'dist'), name ?? 'electron');
  return fs.existsSync(binary) ? { binary } : { reason: `no Electron binary at ${binary}` };
}

const electron = installedElectron();
if (electron.reason) console.log(`Electron smoke test skipped: ${electron.reason}.`);

// The only skip in the suite: without the binary there is no Electron to drive.
describe.skipIf(!electron.binary)('Electron app smoke', () => {
  let dataDir: string;
  let app: ElectronApplication;
  let page: Page;

  beforeAll(async () => {
    const entry = path.join(buildOutput.root, 'dist', 'main', 'electron.main.js');
    for (const built of [entry, buildOutput.electronPreload, path.join(buildOutput.rendererDir, 'index.html')]) {
      if (!fs.existsSync(built)) throw new Error(`${built} missing: run "npm run build" first`);
    }
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-electron-e2e-'));
    const linux = process.platform === 'linux';
    app = await _electron.launch({
      executablePath: electron.binary,
      args: [
        // Chromium refuses to run as root with its sandbox (CI containers). The renderer still
        // runs Electron's Node-less sandboxed renderer: that is `webPreferences.sandbox`.
        ...(linux && process.getuid?.() === 0 ? ['--no-sandbox'] : []),
        // No display (CI without Xvfb): Ozone's headless platform renders without one.
        ...(linux && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY ? ['--ozone-platform=headless'] : []),
        buildOutput.root,
      ],
      env: { ...(process.env as Record<string, string>), KIOSK_DATA_DIR: dataDir, KIOSK_DEV: '' },
      timeout: 60_000,
    });
    page = await app.firstWindow();
  });

  afterAll(async () => {
    await app?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows the attract screen in a visible kiosk window served from app://kiosk', async () => {
    await page.getByTestId('attract-screen').waitFor();
    expect(page.url()).toBe('app://kiosk/index.html');
    const window = await app.evaluate(({ BrowserWindow }) => {
      const [only] = BrowserWindow.getAllWindows();
      return { count: BrowserWindow.getAllWindows().length, visible: only?.isVisible(), kiosk: only?.isKiosk() };
    });
    expect(window).toEqual({ count: 1, visible: true, kiosk: true });
  });

  it('exposes window.kiosk, whose bridge answers', async () => {
    expect(await page.evaluate(() => typeof window.kiosk)).toBe('object');
    const info = await page.evaluate(() => window.kiosk.getAppInfo());
    expect(info).toMatchObject({ ok: true, value: { name: 'Loyalty Kiosk' } });
  });

  it('gives the page no Node: require and process are undefined', async () => {
    expect(await page.evaluate(() => typeof require)).toBe('undefined');
    expect(await page.evaluate(() => typeof process)).toBe('undefined');
  });
});
