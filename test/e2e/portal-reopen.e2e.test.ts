import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.node.ts';
import { openKiosk, startKiosk, type KioskUnderTest } from '../support/kiosk-journey.node.ts';

describe('hosted portal session survives a renderer reload', () => {
  let kiosk: KioskUnderTest;
  let browser: Browser;

  beforeAll(async () => {
    kiosk = await startKiosk({ 'kiosk.mode': 'top-up-prepaid', 'session.scanner_type': 'hand_scanner' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await kiosk?.host.stop();
  });

  it('reopens the same session by uuid (Get Portal Session), and forgets it when the shopper is done', async () => {
    const page = await openKiosk(browser, kiosk);
    await page.getByRole('button', { name: 'Top up my balance' }).click();
    const portal = page.getByTestId('portal-screen');
    const uuid = await portal.getAttribute('data-session');
    expect((await kiosk.platform.getPortalSession({ portal_session_uuid: uuid! })).data.uuid).toBe(uuid);

    // A crash-reload of the renderer (as Electron's render-process-gone handler does) comes back to it.
    await page.reload();
    await expect(portal.getAttribute('data-session')).resolves.toBe(uuid);

    await page.getByRole('button', { name: 'I’m done' }).click();
    await page.getByTestId('attract-screen').waitFor();
    await page.reload();
    await page.getByTestId('attract-screen').waitFor();
    await expect(portal.count()).resolves.toBe(0);
  });
});
