import { describe, expect, it } from 'vitest';
import { KIOSK_VIEWPORTS } from '../support/chromium.node.ts';
import { kioskSuite } from '../support/kiosk-journey.node.ts';

const IDLE_SECONDS = 10;

/**
 * A shopper busy on the platform's hosted page (credit reception here) touches a frame of another
 * origin: the kiosk never sees those touches. It must not send them away after its usual idle
 * time; past the hosted page's longer allowance, a forgotten session still ends.
 */
describe('shopper journey: idle on the hosted page', () => {
  const suite = kioskSuite({ 'kiosk.modes': ['credit-reception'], 'idle.timeoutSeconds': IDLE_SECONDS });

  it('gives a shopper in the hosted page five minutes, then asks and starts over', async () => {
    const page = await suite.browser.newPage({ viewport: KIOSK_VIEWPORTS.portrait, hasTouch: true });
    // The page's clock, so minutes pass in a moment.
    await page.clock.install();
    await page.goto(suite.kiosk.host.url);
    await page.getByTestId('attract-screen').getByRole('button', { name: 'Collect credits' }).tap();
    const portal = page.getByTestId('portal-screen');
    await portal.waitFor();
    const hosted = page.frameLocator('[data-testid="portal-screen"] iframe');
    await hosted.locator('h1').waitFor();
    await hosted.locator('h1').tap();

    // Well past the kiosk's own idle time: still there, no warning.
    await page.clock.fastForward(IDLE_SECONDS * 1000 * 6);
    await expect(page.getByTestId('idle-warning').count()).resolves.toBe(0);
    await expect(portal.isVisible()).resolves.toBe(true);

    // Five minutes without a sign of the shopper: the usual warning, then attract.
    await page.clock.fastForward('04:01');
    await page.getByTestId('idle-warning').waitFor();
    await page.clock.fastForward('00:21');
    await page.getByTestId('attract-screen').waitFor();
    await expect(portal.count()).resolves.toBe(0);
    await page.close();
  });
});
