import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchCameraChromium, recordRequests } from '../camera/camera-browser.node.ts';
import { writeCodeVideo } from '../camera/code-video.node.ts';
import { KIOSK_VIEWPORTS, launchChromium } from '../support/chromium.node.ts';
import { cardOf, checkShopperScreen, screenshot, startKiosk, type KioskUnderTest } from '../support/kiosk-journey.node.ts';

// The whole camera path in the real renderer: Chromium's fake camera plays Sanne's card (as a QR
// code and as an EAN-13), the attract screen's scanner decodes it in its worker, and she is home.
describe('shopper journey: card held up to the camera', () => {
  let kiosk: KioskUnderTest;
  let browser: Browser;
  /** Chromium's own fake camera: a moving test pattern with no code in it, so attract stays up. */
  let patternBrowser: Browser;
  let workDir: string;

  beforeAll(async () => {
    kiosk = await startKiosk({ 'session.scanner_type': 'camera', 'session.facing_mode': 'user' });
    const { card } = cardOf(kiosk.manifest, 'sanne.devries@example.nl');
    workDir = await mkdtemp(join(tmpdir(), 'kiosk-camera-'));
    browser = await launchCameraChromium({ video: await writeCodeVideo(workDir, { qr: card, ean13: card }) });
    patternBrowser = await launchChromium({ args: ['--use-fake-device-for-media-stream'] });
  });
  afterAll(async () => {
    await browser?.close();
    await patternBrowser?.close();
    await kiosk?.host.stop();
    await rm(workDir, { recursive: true, force: true });
  });

  it('identifies the shopper from the camera, stops the camera after, and asks nothing of the internet', async () => {
    const context = await browser.newContext({ viewport: KIOSK_VIEWPORTS.portrait });
    const requests = await recordRequests(context);
    await context.grantPermissions(['camera'], { origin: kiosk.host.origin });
    const page = await context.newPage();
    await page.goto(kiosk.host.url);
    await page.getByTestId('camera-scan').waitFor();
    await page.getByTestId('home-screen').waitFor({ timeout: 20_000 });
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('s•••@example.nl');
    // No screen scans with the camera once the shopper is home: its picture and its tracks are gone.
    await expect(page.locator('video').count()).resolves.toBe(0);
    await screenshot(page, 'home-after-camera');
    expect(requests.filter((url) => !/^(data|blob):/.test(url) && new URL(url).hostname !== '127.0.0.1')).toEqual([]);
    await context.close();
  });

  it('shows the live camera picture on attract, with nothing read while no code is held up', async () => {
    const context = await patternBrowser.newContext({ viewport: KIOSK_VIEWPORTS.landscape, hasTouch: true });
    await context.grantPermissions(['camera'], { origin: kiosk.host.origin });
    const page = await context.newPage();
    await page.goto(kiosk.host.url);
    const attract = page.getByTestId('attract-screen');
    await expect(attract.getAttribute('data-scanner-type')).resolves.toBe('camera');
    // Playing: the camera is really on, not a failure message in its place.
    await expect.poll(() => page.locator('video').evaluate((video: HTMLVideoElement) => video.readyState >= 2 && !video.paused)).toBe(true);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Show your loyalty card');
    await checkShopperScreen(page, 'attract-camera');
    await expect(attract.isVisible()).resolves.toBe(true);
    await context.close();
  });
});
