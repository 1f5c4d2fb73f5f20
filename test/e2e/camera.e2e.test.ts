import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toBuffer as barcodePng } from 'bwip-js/node';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAMERA_FORMATS } from '../../common/config-schema.std.ts';
import { Scan } from '../../common/scan.std.ts';
import { FULL_FRAME_EVERY } from '../../renderer/camera/decode-region.std.ts';
import { launchCameraChromium, recordRequests } from '../camera/camera-browser.node.ts';
import { writeCodeVideo } from '../camera/code-video.node.ts';
import { serveCameraHarness, type HarnessServer } from '../camera/harness-server.node.ts';
import '../camera/harness/harness-api.std.ts';

// The real scanner, worker and WASM, built by Vite and run in Chromium whose fake camera
// plays a video of a QR code and an EAN-13 made by this test, held in the aiming frame.
const QR_VALUE = 'LOYALTY:4711-0815-CARD';
const EAN13_VALUE = '4006381333931';

let workDir: string;
let harness: HarnessServer;
let browser: Browser;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'camera-scanner-'));
  const [video, server] = await Promise.all([
    writeCodeVideo(workDir, { qr: QR_VALUE, ean13: EAN13_VALUE }),
    serveCameraHarness(),
  ]);
  harness = server;
  browser = await launchCameraChromium({ video });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
  await rm(workDir, { recursive: true, force: true });
});

async function openHarness({ grantCamera = true } = {}): Promise<{ page: Page; requests: string[] }> {
  const context = await browser.newContext();
  const requests = await recordRequests(context);
  if (grantCamera) await context.grantPermissions(['camera'], { origin: new URL(harness.url).origin });
  const page = await context.newPage();
  await page.goto(harness.url);
  return { page, requests };
}

const scansOf = async (page: Page, count: number) => {
  await page.waitForFunction((n) => window.cameraHarness.scans.length >= n, count, { timeout: 10_000 });
  return page.evaluate(() => window.cameraHarness.scans);
};

describe('camera scanner in Chromium', () => {
  it('reads the QR code and the EAN-13 as camera Scans, once each while they stay in view', async () => {
    const { page } = await openHarness();
    expect(await page.evaluate(() => window.cameraHarness.start(2))).toEqual({ ok: true, engine: 'zxing', width: 1280, height: 720 });

    const scans = (await scansOf(page, 2)).map((scan) => Scan.parse(scan));
    expect(scans).toEqual(
      expect.arrayContaining([
        { value: QR_VALUE, source: 'camera', symbology: 'Q1', at: expect.any(Number) },
        { value: EAN13_VALUE, source: 'camera', symbology: 'E0', at: expect.any(Number) },
      ]),
    );

    // Read from the aiming region: before the first whole-frame decode.
    const scanFrames = await page.evaluate(() => window.cameraHarness.scanFrames);
    expect(Math.max(...scanFrames)).toBeLessThan(FULL_FRAME_EVERY);

    // Both codes stay in every frame for another few frames of decoding: no repeats.
    const sentBefore = (await page.evaluate(() => window.cameraHarness.stats())).framesSent;
    await expect.poll(async () => (await page.evaluate(() => window.cameraHarness.stats())).framesSent, { timeout: 10_000 }).toBeGreaterThan(sentBefore + 5);
    expect(await page.evaluate(() => window.cameraHarness.scans.length)).toBe(2);

    expect(await page.evaluate(() => window.cameraHarness.previewPlaysStream())).toBe(true);
    await page.context().close();
  });

  it('reads only the configured formats (scanner.camera.formats)', async () => {
    const { page } = await openHarness();
    await page.evaluate(() => window.cameraHarness.start(2, ['ean13']));
    expect((await scansOf(page, 1)).map((scan) => scan.value)).toEqual([EAN13_VALUE]);
    // The QR code is in every frame too; several whole-frame decodes later it is still not read.
    await page.waitForFunction((frames) => window.cameraHarness.stats().framesSent >= frames, 3 * FULL_FRAME_EVERY);
    expect((await page.evaluate(() => window.cameraHarness.scans)).map((scan) => scan.value)).toEqual([EAN13_VALUE]);
    await page.context().close();
  });

  it('loads the .wasm from the app itself and sends no request beyond loopback', async () => {
    const { page, requests } = await openHarness();
    // start() resolves once the decoder has its WebAssembly, so every fetch for it is recorded by now.
    const started = await page.evaluate(() => window.cameraHarness.start(2));

    expect(requests.filter((url) => !url.startsWith(harness.url) && !/^(data|blob):/.test(url))).toEqual([]);
    const wasm = requests.filter((url) => url.endsWith('.wasm'));
    expect(wasm).toHaveLength(1);
    expect(wasm[0]!.startsWith(`${harness.url}assets/`)).toBe(true);
    expect(started).toMatchObject({ ok: true });
    await page.context().close();
  });

  it('decodes with ZXing for camera_service 1 where Chromium has no BarcodeDetector (Linux)', async () => {
    const { page } = await openHarness();
    expect(await page.evaluate(() => 'BarcodeDetector' in window)).toBe(false);
    expect(await page.evaluate(() => window.cameraHarness.start(1))).toMatchObject({ ok: true, engine: 'zxing' });
    await scansOf(page, 1);
    await page.context().close();
  });

  describe('bundled ZXing', () => {
    let page: Page;
    beforeAll(async () => void ({ page } = await openHarness()));
    afterAll(() => page.context().close());

    it.each([
      ['qrcode', 'LOYALTY:QR-0001', 'Q1'],
      ['ean13', '4006381333931', 'E0'],
      ['ean8', '96385074', 'E4'],
      ['code128', 'Loyalty-128', 'C0'],
      ['code39', 'KIOSK-39', 'A0'],
      ['datamatrix', 'LOYALTY:DM-0042', 'd1'],
    ])('reads %s', async (bcid, value, symbology) => {
      const png = await barcodePng({ bcid, text: value, scale: 4, height: 20, paddingwidth: 20, paddingheight: 20, backgroundcolor: 'FFFFFF' });
      expect(await page.evaluate((base64) => window.cameraHarness.decodeImage(base64), png.toString('base64'))).toEqual([{ value, symbology }]);
    });
  });

  it('drops frames while the decoder is busy instead of queueing them', async () => {
    const { page } = await openHarness();
    // Every format: its whole-frame decodes outlast a camera frame even on a quick machine.
    await page.evaluate((formats) => window.cameraHarness.start(2, formats), [...CAMERA_FORMATS]);
    await expect.poll(async () => (await page.evaluate(() => window.cameraHarness.stats())).framesDropped, { timeout: 10_000 }).toBeGreaterThan(0);
    const { framesSeen, framesSent, framesDropped } = await page.evaluate(() => window.cameraHarness.stats());
    expect(framesDropped).toBeGreaterThan(0);
    // Every frame is either sent or dropped, give or take the one being grabbed right now.
    expect(framesSeen - framesSent - framesDropped).toBeGreaterThanOrEqual(0);
    expect(framesSeen - framesSent - framesDropped).toBeLessThanOrEqual(1);
    await page.context().close();
  });

  it('stop() ends every camera track', async () => {
    const { page } = await openHarness();
    await page.evaluate(() => window.cameraHarness.start(2));
    expect(await page.evaluate(() => window.cameraHarness.trackStates())).toEqual(['live']);
    await page.evaluate(() => window.cameraHarness.stop());
    expect(await page.evaluate(() => window.cameraHarness.trackStates())).toEqual(['ended']);
    await page.context().close();
  });

  it('stop() during start() still ends the camera once it opens', async () => {
    const { page } = await openHarness();
    expect(await page.evaluate(() => window.cameraHarness.startAndStopAtOnce(2))).toEqual({ ok: false, error: 'stopped' });
    expect(await page.evaluate(() => window.cameraHarness.trackStates())).toEqual(['ended']);
    await page.context().close();
  });

  it('reports permission-denied when camera access is refused', async () => {
    const { page } = await openHarness({ grantCamera: false });
    expect(await page.evaluate(() => window.cameraHarness.start(2))).toEqual({ ok: false, error: 'permission-denied' });
    expect(await page.evaluate(() => window.cameraHarness.trackStates())).toEqual([]);
    await page.context().close();
  });

  it('reports no-camera when no camera is attached', async () => {
    const cameraless = await launchCameraChromium('none');
    try {
      const context = await cameraless.newContext();
      await context.grantPermissions(['camera'], { origin: new URL(harness.url).origin });
      const page = await context.newPage();
      await page.goto(harness.url);
      expect(await page.evaluate(() => window.cameraHarness.start(2))).toEqual({ ok: false, error: 'no-camera' });
    } finally {
      await cameraless.close();
    }
  });

  it('finds codes held off-centre with the whole-frame decode, within FULL_FRAME_EVERY frames', async () => {
    const offCentre = await launchCameraChromium({
      video: await writeCodeVideo(workDir, { qr: QR_VALUE, ean13: EAN13_VALUE }, 'side-by-side'),
    });
    try {
      const context = await offCentre.newContext();
      await context.grantPermissions(['camera'], { origin: new URL(harness.url).origin });
      const page = await context.newPage();
      await page.goto(harness.url);
      await page.evaluate(() => window.cameraHarness.start(2));
      expect((await scansOf(page, 2)).map((scan) => scan.value).sort()).toEqual([EAN13_VALUE, QR_VALUE].sort());
      // Each code is half outside the aiming region: the region decodes miss it, the whole frame reads it.
      expect(await page.evaluate(() => window.cameraHarness.scanFrames)).toEqual([FULL_FRAME_EVERY, FULL_FRAME_EVERY]);
    } finally {
      await offCentre.close();
    }
  });
});
