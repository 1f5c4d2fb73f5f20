import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KIOSK_VIEWPORTS } from '../support/chromium.node.ts';
import { kioskSuite } from '../support/kiosk-journey.node.ts';

describe('boot cover: black with the brand from the first frame until the attract screen is painted', () => {
  const suite = kioskSuite({ 'brand.name': 'Corner Shop' });

  it('is in the first DOM, covers the whole screen, takes the configured brand, and is gone once the attract screen shows', async () => {
    const page = await suite.browser.newPage({ viewport: KIOSK_VIEWPORTS.portrait });
    // Every text the cover shows, seen from before the page's own scripts run.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { coverTexts: string[] }).coverTexts = seen;
      new MutationObserver(() => {
        const text = document.getElementById('boot-cover')?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    // The app's scripts are held back: what shows meanwhile is the page as the host first serves it.
    let releaseScripts!: () => void;
    const scriptsHeld = new Promise<void>((resolve) => (releaseScripts = resolve));
    await page.route('**/assets/*.js', async (route) => {
      await scriptsHeld;
      await route.continue();
    });
    await page.goto(suite.kiosk.host.url, { waitUntil: 'commit' });

    const cover = page.getByTestId('boot-cover');
    await cover.waitFor();
    await expect(cover.textContent()).resolves.toBe('Loyalty Kiosk');
    await expect(cover.evaluate((element) => getComputedStyle(element).backgroundColor)).resolves.toBe('rgb(0, 0, 0)');
    await expect(cover.boundingBox()).resolves.toEqual({ x: 0, y: 0, ...KIOSK_VIEWPORTS.portrait });
    fs.mkdirSync(path.join('test-results', 'screens'), { recursive: true });
    await page.screenshot({ path: path.join('test-results', 'screens', 'boot-cover-portrait.png') });

    releaseScripts();
    await page.getByTestId('attract-screen').waitFor();
    await expect(cover.count()).resolves.toBe(0);
    expect(await page.evaluate(() => (window as unknown as { coverTexts: string[] }).coverTexts)).toEqual(['Loyalty Kiosk', 'Corner Shop']);
    await page.close();
  });
});
