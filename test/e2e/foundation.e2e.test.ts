import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startBrowserHostProcess, type BrowserHostProcess } from '../support/browser-host-process.node.ts';
import { KIOSK_VIEWPORTS, launchChromium } from '../support/chromium.node.ts';

describe('browser host smoke', () => {
  let host: BrowserHostProcess;
  let browser: Browser;

  beforeAll(async () => {
    host = await startBrowserHostProcess();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await host?.stop();
  });

  it('prints the demo sandbox and its manifest', () => {
    expect(host.sandbox?.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(fs.existsSync(host.sandbox!.manifestPath)).toBe(true);
  });

  it('renders the attract screen with window.kiosk and a working bridge', async () => {
    for (const [name, viewport] of Object.entries(KIOSK_VIEWPORTS)) {
      const page = await browser.newPage({ viewport });
      await page.goto(host.url);
      await page.getByTestId('attract-screen').waitFor();
      await expect(page.getByTestId('demo-badge').isVisible()).resolves.toBe(true);
      const info = await page.evaluate(() => window.kiosk.getAppInfo());
      expect(info).toMatchObject({ ok: true, value: { name: 'Loyalty Kiosk', demo: true } });
      const unknown = await page.evaluate(() => (window.kiosk as unknown as Record<string, unknown>).ipcRenderer);
      expect(unknown).toBeUndefined();
      fs.mkdirSync('test-results', { recursive: true });
      await page.screenshot({ path: `test-results/attract-${name}.png` });
      await page.close();
    }
  });

  it('refuses the page and the bridge without the right token', async () => {
    const noToken = await fetch(host.origin);
    expect(noToken.status).toBe(403);
    const wrong = await fetch(`${host.origin}/?token=wrong`);
    expect(wrong.status).toBe(403);
    const page = await browser.newPage();
    await page.goto(`${host.origin}/kiosk-bridge.js`);
    const opened = await page.evaluate(
      (origin) =>
        new Promise<boolean>((resolve) => {
          const socket = new WebSocket(`${origin.replace('http', 'ws')}/bridge?token=wrong`);
          socket.onopen = () => resolve(true);
          socket.onerror = () => resolve(false);
        }),
      host.origin,
    );
    expect(opened).toBe(false);
    await page.close();
  });
});
