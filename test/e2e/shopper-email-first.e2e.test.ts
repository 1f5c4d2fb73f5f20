import { describe, expect, it } from 'vitest';
import { cardOf, checkShopperScreen, kioskSuite, openKiosk, scannerBurst, tapOnScreenKeyboard, kioskEvents, visitSessionLogged } from '../support/kiosk-journey.node.ts';

/**
 * primary_identification_method `email`: the attract screen leads with e-mail (its headline and its
 * one main action), and scanning is offered second, still working. The visit's portal session
 * carries the setting, checked in the sandbox.
 */
describe('shopper journey: e-mail as the primary way to identify', () => {
  const suite = kioskSuite({
    'session.scanner_type': 'hand_scanner',
    'session.enable_email_identification': true,
    'session.enable_on_screen_keyboard': true,
    'session.primary_identification_method': 'email',
  });

  it('leads with e-mail on attract, and the session made for the shopper says so', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'portrait');
    const attract = page.getByTestId('attract-screen');
    await expect(attract.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Start with your e-mail address');
    await expect(attract.getByText('Or scan your loyalty card under the scanner').isVisible()).resolves.toBe(true);
    await expect(attract.locator('button.primary').textContent()).resolves.toBe('Use my e-mail address');
    await checkShopperScreen(page, 'email-first-attract');

    await attract.getByRole('button', { name: 'Use my e-mail address' }).tap();
    await page.getByTestId('email-screen').waitFor();
    await page.getByRole('textbox', { name: 'E-mail address' }).tap();
    await tapOnScreenKeyboard(page, 'sanne.devries@example.nl');
    const sessionsBefore = kioskEvents(suite.kiosk.dataDir, 'portal.session_created').length;
    await page.getByRole('button', { name: 'Continue' }).tap();
    await page.getByTestId('home-screen').waitFor();

    const uuid = await visitSessionLogged(suite.kiosk.dataDir, sessionsBefore);
    const session = (await suite.kiosk.platform.getPortalSession({ portal_session_uuid: uuid })).data as unknown as {
      contact: { uuid: string } | null;
      settings: Record<string, unknown>;
    };
    expect(session.contact?.uuid).toBe(cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl').uuid);
    expect(session.settings).toMatchObject({ primary_identification_method: 'email', enable_email_identification: true });
    await page.close();
  });

  it('still identifies a shopper who scans their card instead', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'landscape');
    await scannerBurst(page, cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl').card);
    await page.getByTestId('home-screen').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('s•••@example.nl');
    await page.close();
  });
});
