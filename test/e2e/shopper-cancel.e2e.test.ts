import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { cardOf, checkShopperScreen, kioskSuite, openKiosk, scannerBurst, screenshot } from '../support/kiosk-journey.node.ts';

/** The confirm screen's countdown (CONFIRM_SECONDS in renderer/visit/visit.svelte.ts). */
const CONFIRM_SECONDS = 60;

/**
 * Redeem, then change one's mind: Cancel or Back on the confirm screen, or letting its countdown run
 * out, gives the lock back, so the voucher is ACTIVE again in the platform and nothing was redeemed.
 */
describe('shopper journey: card → home → voucher → redeem → cancel / back', () => {
  // Idle comes later than the confirm countdown's end, so running it out is not taken for walking away.
  const suite = kioskSuite({ 'session.scanner_type': 'hand_scanner', 'idle.timeoutSeconds': 2 * CONFIRM_SECONDS });

  const koffie = async () => (await suite.kiosk.platform.findVoucher({ code: 'KOFFIE24' })).data;

  /** Sanne's card, her home screen, then her KOFFIE24 (the one coffee voucher of hers with an end date). */
  async function openKoffie24(page: Page) {
    const sanne = cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl');
    await scannerBurst(page, sanne.card);
    await page.getByTestId('home-screen').waitFor();
    await page.getByTestId('voucher-list').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('s•••@example.nl');
    await checkShopperScreen(page, 'cancel-home');
    await page.getByRole('button', { name: /Gratis koffie/ }).filter({ hasText: 'Valid until' }).click();
    await page.getByTestId('voucher-screen').waitFor();
    await page.getByTestId('redeem').and(page.locator(':enabled')).waitFor();
    await checkShopperScreen(page, 'cancel-voucher');
  }

  /** Redeem: the confirm screen, and the platform holds KOFFIE24 locked for this suite.kiosk. */
  async function lockIt(page: Page) {
    await page.getByTestId('redeem').click();
    await page.getByTestId('confirm-screen').waitFor();
    await expect(page.getByTestId('countdown').textContent()).resolves.toMatch(/\d+ seconds left/);
    expect(await koffie()).toMatchObject({ status: 'LOCKED', times_redeemed: 0 });
    // Only this voucher: none of Sanne's others is held.
    const sanne = cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl');
    const held = (await suite.kiosk.platform.listVouchers({ contact_uuid: sanne.uuid, limit: 100 })).data.filter((voucher) => voucher.status === 'LOCKED');
    expect(held.map((voucher) => voucher.code)).toEqual(['KOFFIE24']);
    await checkShopperScreen(page, 'cancel-confirm');
  }

  /** Back on the voucher screen, able to redeem again; the platform has the voucher ACTIVE, unredeemed. */
  async function expectReleased(page: Page) {
    await page.getByTestId('voucher-screen').waitFor();
    await expect.poll(async () => (await koffie()).status).toBe('ACTIVE');
    expect(await koffie()).toMatchObject({ status: 'ACTIVE', times_redeemed: 0, is_redeemed: false });
    await page.getByTestId('redeem').and(page.locator(':enabled')).waitFor();
    await expect(page.getByTestId('problem').count()).resolves.toBe(0);
    // Told what became of it, as a notice, not a problem.
    await expect(page.getByTestId('notice').textContent()).resolves.toBe('Nothing was redeemed: the voucher is free to use again.');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Gratis koffie');
  }

  for (const viewport of ['portrait', 'landscape'] as const) {
    it(`Cancel, the confirm screen's one way back, releases the voucher, and the back key presses it (${viewport})`, async () => {
      const page = await openKiosk(suite.browser, suite.kiosk, viewport);
      await checkShopperScreen(page, 'cancel-attract');
      await openKoffie24(page);

      await lockIt(page);
      // Not a Back and a Cancel that do the same (#33 §12).
      await expect(page.getByTestId('confirm-screen').getByRole('button', { name: 'Back' }).count()).resolves.toBe(0);
      await page.getByTestId('cancel').click();
      await expectReleased(page);
      await screenshot(page, 'cancel-voucher-after-cancel');

      await lockIt(page);
      await page.keyboard.press('Escape');
      await expectReleased(page);

      // And Back from the voucher goes home with the voucher still listed: nothing was used.
      await page.getByRole('button', { name: 'Back' }).click();
      await page.getByTestId('home-screen').waitFor();
      await page.getByRole('button', { name: /Gratis koffie/ }).filter({ hasText: 'Valid until' }).waitFor();
      await page.close();
    });
  }

  it('the countdown running out releases the voucher, and not a moment before', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'portrait');
    await openKoffie24(page);
    // From here the page's clock is the test's: the countdown starts on it.
    await page.clock.install();
    await lockIt(page);

    // Most of the minute goes by (less the real seconds the checks above took): still held.
    await page.clock.fastForward((CONFIRM_SECONDS - 15) * 1000);
    await expect.poll(async () => Number.parseInt((await page.getByTestId('countdown').textContent())!)).toBeLessThanOrEqual(15);
    await expect(page.getByTestId('confirm-screen').isVisible()).resolves.toBe(true);
    expect((await koffie()).status).toBe('LOCKED');

    await page.clock.fastForward(16_000);
    await expectReleased(page);
    await page.close();
  });
});
