import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../main/logging/logger.std.ts';
import { sealSetupCard } from '../../main/manager/setup-card.node.ts';
import { setupCode } from '../../main/manager/setup-code.node.ts';
import { dataFiles } from '../../main/paths/data-files.node.ts';
import { KeytarSecretStore, kioskKeychain } from '../../main/secrets/secret-store.node.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/sandbox.node.ts';
import { cameraTrackStates, launchCameraChromium, recordCameraStreams } from '../camera/camera-browser.node.ts';
import { writeCodeVideo } from '../camera/code-video.node.ts';
import { KIOSK_VIEWPORTS } from '../support/chromium.node.ts';
import { kioskEvents, screenshot, startKiosk, type KioskUnderTest } from '../support/kiosk-journey.node.ts';
import { enterSetupCode, pressOn, tapCorner } from '../support/manager-console.node.ts';

/**
 * A kiosk that scans with a camera and has no hand scanner: its manager holds the setup card
 * (kioskctl setup-qr) up to the camera on the wizard's connect step (#34 §2). Chromium's fake
 * camera plays the card's QR code, sealed with this kiosk's setup code, from the start: the
 * attract screen's camera sees it too, and must not send it to any platform.
 */
describe('manager console: a setup card held up to the camera', () => {
  const keychainService = `loyalty-kiosk-test-${crypto.randomUUID()}`;
  let platform: RunningSandbox;
  let kiosk: KioskUnderTest;
  let browser: Browser;
  let workDir: string;

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-camera-'));
    [platform, kiosk] = await Promise.all([
      startSandbox({ dataDir: fs.mkdtempSync(path.join(workDir, 'platform-')), port: 0 }),
      startKiosk({ 'session.scanner_type': 'camera', 'session.facing_mode': 'user' }, undefined, { KIOSK_KEYCHAIN_SERVICE: keychainService }),
    ]);
    const card = sealSetupCard(
      { baseUrl: platform.baseUrl, shopUuid: platform.manifest.shops[0]!.uuid, apiKey: platform.manifest.credentials.api_key },
      setupCode(kiosk.dataDir),
    );
    browser = await launchCameraChromium({ video: await writeCodeVideo(workDir, { qr: card }) });
  });
  afterAll(async () => {
    await browser?.close();
    await kiosk?.host.stop();
    await platform?.close();
    await new KeytarSecretStore({ logger: silentLogger, ...kioskKeychain(kiosk.dataDir, keychainService) }).remove('apiKey').catch(() => {});
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('connects from the card the camera reads, with the camera off again after, and the shopper screen says the card is for staff', async () => {
    const context = await browser.newContext({ viewport: KIOSK_VIEWPORTS.portrait, hasTouch: true });
    await context.grantPermissions(['camera'], { origin: kiosk.host.origin });
    await recordCameraStreams(context);
    const page = await context.newPage();
    await page.goto(kiosk.host.url);
    // The attract screen's camera reads the card first: main answers it without asking the platform
    // (shopper-handlers.test.ts), and staff's log says where it was scanned.
    await expect.poll(() => kioskEvents(kiosk.dataDir, 'setup.card_misplaced').length, { timeout: 20_000 }).toBeGreaterThan(0);
    // The one holding it is told what it is and whom it is for, not that the code is unknown.
    await page.getByTestId('notice-screen').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('This is a setup card for the kiosk. Please give it to a member of staff.');
    await screenshot(page, 'notice-setup-card');

    await tapCorner(page);
    await enterSetupCode(page, kiosk.dataDir);
    await page.getByTestId('wizard-connect').tap();
    const toggle = page.getByTestId('setup-card-camera-toggle');
    await expect(toggle.textContent()).resolves.toContain('Scan it with the camera');
    // By keys alone, as a manager at a keyboard would: Tab reaches it, its focus shows, Enter starts it.
    await pressOn(page, toggle);
    await page.getByTestId('pin-setter').waitFor({ timeout: 20_000 });
    const secrets = new KeytarSecretStore({ logger: silentLogger, ...kioskKeychain(kiosk.dataDir, keychainService) });
    await expect(secrets.get('apiKey')).resolves.toBe(platform.manifest.credentials.api_key);
    expect(JSON.parse(fs.readFileSync(dataFiles(kiosk.dataDir).config, 'utf8')).api).toEqual({ baseUrl: platform.baseUrl, shopUuid: platform.manifest.shops[0]!.uuid });
    expect(kioskEvents(kiosk.dataDir, 'setup.card_connected')).toHaveLength(1);
    // The step moved on: no picture, and every track the wizard opened has ended (the light is off).
    await expect(page.getByTestId('setup-card-camera').count()).resolves.toBe(0);
    await expect.poll(() => cameraTrackStates(page)).not.toContain('live');
    expect(await page.content()).not.toContain(platform.manifest.credentials.api_key);
    await screenshot(page, 'console-wizard-card-camera-connected');
    await context.close();
  });
});
