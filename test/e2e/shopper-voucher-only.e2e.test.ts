import { describe, expect, it } from 'vitest';
import {
  cardOf,
  checkShopperScreen,
  kioskSuite,
  openKiosk,
  openKioskRecordingCalls,
  scannerBurst,
  stopPageClock,
} from '../support/kiosk-journey.node.ts';

/**
 * A paper voucher scanned first: one that belongs to nobody is redeemed for the shopper who then
 * scans their card. Unknown codes and used vouchers are turned away in plain words.
 */
describe('shopper journey: voucher scanned before the card', () => {
  const suite = kioskSuite({ 'session.scanner_type': 'hand_scanner' });

  const voucher = async (code: string) => (await suite.kiosk.platform.findVoucher({ code })).data;

  it('KF9R4TBZ asks for the loyalty card, then is redeemed once for Sanne (portrait)', async () => {
    expect(await voucher('KF9R4TBZ')).toMatchObject({ status: 'ACTIVE', contact: null, times_redeemed: 0 });
    const { page, calls } = await openKioskRecordingCalls(suite.browser, suite.kiosk, 'portrait');
    await checkShopperScreen(page, 'voucher-only-attract');

    await scannerBurst(page, 'KF9R4TBZ');
    await page.getByTestId('voucher-screen').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Gratis koffie');
    await expect(page.getByTestId('needs-card').textContent()).resolves.toBe('Scan your loyalty card to use this voucher.');
    await expect(page.getByTestId('redeem').count()).resolves.toBe(0);
    await expect(page.getByTestId('problem').count()).resolves.toBe(0);
    // Nobody to check it for yet: the platform refuses a contact-less voucher's check without a contact.
    expect(calls).not.toContain('checkVoucher');
    await checkShopperScreen(page, 'voucher-only-needs-card');

    // Her card, on the voucher screen: the kiosk stays on the voucher, now hers to redeem.
    await scannerBurst(page, cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl').card);
    await page.getByTestId('redeem').and(page.locator(':enabled')).waitFor();
    await expect(page.getByTestId('needs-card').count()).resolves.toBe(0);
    await expect(page.getByTestId('voucher-screen').isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('problem').count()).resolves.toBe(0);
    // Checked once, for her, after her card was read.
    expect(calls.filter((call) => call === 'lookupScan' || call === 'checkVoucher')).toEqual(['lookupScan', 'lookupScan', 'checkVoucher']);
    await checkShopperScreen(page, 'voucher-only-ready');

    await page.getByTestId('redeem').click();
    await page.getByTestId('confirm-screen').waitFor();
    expect((await voucher('KF9R4TBZ')).status).toBe('LOCKED');
    await checkShopperScreen(page, 'voucher-only-confirm');
    await page.getByTestId('confirm').click();
    await page.getByTestId('redeemed-screen').waitFor();
    await expect(page.getByTestId('redeemed-screen').getAttribute('data-code')).resolves.toBe('KF9R4TBZ');
    await checkShopperScreen(page, 'voucher-only-redeemed');

    // Redeemed exactly once, in the platform; still nobody's voucher.
    expect(await voucher('KF9R4TBZ')).toMatchObject({
      status: 'REDEEMED',
      times_redeemed: 1,
      redemptions_remaining: 0,
      is_redeemed: true,
      contact: null,
    });
    // Sanne's own vouchers were left alone.
    const sanne = cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl');
    const hers = (await suite.kiosk.platform.listVouchers({ contact_uuid: sanne.uuid, limit: 100 })).data;
    expect(hers.filter((own) => own.status === 'REDEEMED').map((own) => own.code)).toEqual(['KFR2D8WM']);

    // Another voucher, from the redeemed screen: Sanne's home, the visit goes on.
    await page.getByRole('button', { name: 'Another voucher' }).click();
    await page.getByTestId('home-screen').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('s•••@example.nl');
    await page.close();
  });

  it('turns away an unknown code and an already used voucher (landscape)', async () => {
    // The page's time stands still while the notice is looked at: it would go by itself.
    const page = await openKiosk(suite.browser, suite.kiosk, 'landscape', { fakeClock: true });
    await stopPageClock(page);
    await checkShopperScreen(page, 'voucher-only-attract');

    await scannerBurst(page, 'NOSUCH42');
    await page.getByTestId('notice-screen').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sorry, we don’t recognise this code.');
    await expect(page.getByRole('button', { name: 'Join and link this card' }).count()).resolves.toBe(0);
    await checkShopperScreen(page, 'voucher-only-unknown');
    await expect(voucher('NOSUCH42')).rejects.toMatchObject({ kind: 'not_found' });

    await page.getByRole('button', { name: 'Start over' }).click();
    await page.getByTestId('attract-screen').waitFor();
    const before = await voucher('KFR2D8WM');
    expect(before).toMatchObject({ status: 'REDEEMED', times_redeemed: 1 });
    await scannerBurst(page, 'KFR2D8WM');
    await page.getByTestId('voucher-screen').waitFor();
    await expect(page.getByTestId('problem').textContent()).resolves.toBe('This voucher has already been used.');
    await expect(page.getByTestId('redeem').count()).resolves.toBe(0);
    await expect(page.getByTestId('needs-card').count()).resolves.toBe(0);
    await checkShopperScreen(page, 'voucher-only-used');
    // Looked at, not touched.
    expect(await voucher('KFR2D8WM')).toEqual(before);

    // Nobody identified: Back ends the visit.
    await page.getByRole('button', { name: 'Back' }).first().click();
    await page.getByTestId('attract-screen').waitFor();
    await page.close();
  });
});
