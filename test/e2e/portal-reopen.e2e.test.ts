import { describe, expect, it } from 'vitest';
import { checkShopperScreen, kioskSuite, openKiosk } from '../support/kiosk-journey.node.ts';

describe('hosted portal session survives a renderer reload', () => {
  const suite = kioskSuite({ 'kiosk.modes': ['top-up-prepaid'], 'session.scanner_type': 'hand_scanner' });

  it('reopens the same session by uuid (Get Portal Session), and forgets it when the shopper is done', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk);
    await page.getByRole('button', { name: 'Top up my balance' }).click();
    const portal = page.getByTestId('portal-screen');
    const uuid = await portal.getAttribute('data-session');
    expect((await suite.kiosk.platform.getPortalSession({ portal_session_uuid: uuid! })).data.uuid).toBe(uuid);

    // A crash-reload of the renderer (as Electron's render-process-gone handler does) comes back to it.
    await page.reload();
    await expect(portal.getAttribute('data-session')).resolves.toBe(uuid);
    await page.getByTestId('session-qr').waitFor();
    await checkShopperScreen(page, 'portal-reopened');

    await page.getByRole('button', { name: 'I’m done' }).click();
    await page.getByTestId('attract-screen').waitFor();
    await page.reload();
    await page.getByTestId('attract-screen').waitFor();
    await expect(portal.count()).resolves.toBe(0);
  });
});
