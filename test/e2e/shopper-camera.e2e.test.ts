import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cameraTrackStates, launchCameraChromium, recordCameraStreams, recordRequests } from '../camera/camera-browser.node.ts';
import { writeCodeVideo } from '../camera/code-video.node.ts';
import { KIOSK_VIEWPORTS, launchChromium } from '../support/chromium.node.ts';
import { cardOf, checkShopperScreen, screenshot, startKiosk, kioskEvents, type KioskUnderTest } from '../support/kiosk-journey.node.ts';
import { ConfigStore } from '../../main/config/config-store.node.ts';
import { silentLogger } from '../../main/logging/logger.std.ts';
import { shopperMessages as messages } from '../../renderer/i18n/messages/shopper.std.ts';

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
    // Every stream the kiosk opens, kept so its tracks can be checked after the app lets go of it.
    await recordCameraStreams(context);
    const page = await context.newPage();
    await page.goto(kiosk.host.url);
    await page.getByTestId('camera-scan').waitFor();
    await page.getByTestId('home-screen').waitFor({ timeout: 20_000 });
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('s•••@example.nl');
    // No screen scans with the camera once the shopper is home: its picture is gone and every
    // track the kiosk opened has ended (the camera's light is off), not merely been let go of.
    await expect(page.locator('video').count()).resolves.toBe(0);
    expect(await cameraTrackStates(page)).not.toHaveLength(0);
    await expect.poll(() => cameraTrackStates(page)).not.toContain('live');
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

  /** The kiosk in a browser with no camera at all (camera permission granted, so the absence is what fails). */
  async function openCameraless(cameraless: Browser): Promise<Page> {
    const context = await cameraless.newContext({ viewport: KIOSK_VIEWPORTS.portrait });
    await context.grantPermissions(['camera'], { origin: kiosk.host.origin });
    const page = await context.newPage();
    await page.goto(kiosk.host.url);
    return page;
  }

  it('without a camera, offers the hand scanner and no error (the error goes to the log), in the shopper\'s language', async () => {
    const cameraless = await launchCameraChromium('none');
    try {
      const page = await openCameraless(cameraless);
      const attract = page.getByTestId('attract-screen');
      await expect.poll(() => attract.getAttribute('data-scanner-type')).toBe('hand_scanner');
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(messages.en['attract.scan.hand_scanner']);
      await expect(page.getByRole('alert').count()).resolves.toBe(0);
      await expect.poll(() => kioskEvents(kiosk.dataDir, 'renderer.error').some((line) => line.where === 'camera' && String(line.message).includes('no-camera'))).toBe(true);
      await page.getByRole('button', { name: messages.nl['language.name'] }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(messages.nl['attract.scan.hand_scanner']);
      await screenshot(page, 'attract-no-camera');
    } finally {
      await cameraless.close();
    }
  });

  it('says there is no camera, in the shopper\'s language, where no hand scanner is left to scan a voucher', async () => {
    // A serial scanner that is not connected: at home, the camera was the only way to scan a voucher.
    new ConfigStore({ dataDir: kiosk.dataDir, logger: silentLogger }).set('scanner.connection', 'serial');
    const cameraless = await launchCameraChromium('none');
    try {
      const page = await openCameraless(cameraless);
      await page.getByRole('button', { name: messages.nl['language.name'] }).click();
      await page.getByTestId('try-sample').click();
      await page.locator(`[data-sample="${cardOf(kiosk.manifest, 'sanne.devries@example.nl').card}"]`).click();
      await page.getByTestId('home-screen').waitFor();
      await page.getByRole('button', { name: messages.nl['home.scan_voucher.camera'] }).click();
      const problem = page.getByTestId('camera-scan').getByRole('alert');
      await expect.poll(() => problem.textContent()).toBe(messages.nl['camera.no-camera']);
    } finally {
      await cameraless.close();
      new ConfigStore({ dataDir: kiosk.dataDir, logger: silentLogger }).set('scanner.connection', 'keyboard');
    }
  });
});
