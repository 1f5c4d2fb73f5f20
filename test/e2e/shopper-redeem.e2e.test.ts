import { describe, expect, it } from 'vitest';
import { cardOf, checkShopperScreen, kioskSuite, openKiosk, scannerBurst, stopPageClock, wedgeScan } from '../support/kiosk-journey.node.ts';
import { barcodesIn } from '../support/barcodes.node.ts';
import { openLedgerToRead } from '../../main/ledger/ledger.node.ts';
import { dataFiles } from '../../main/paths/data-files.node.ts';

describe('shopper journey: card by wedge → home → redeem', () => {
  const suite = kioskSuite({ 'session.scanner_type': 'hand_scanner' });

  it('identifies Sanne by her card and redeems one of her vouchers exactly once', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk);
    await checkShopperScreen(page, 'attract');
    const sanne = cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl');
    await wedgeScan(page, sanne.card);
    await page.getByTestId('home-screen').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('s•••@example.nl');
    await page.getByTestId('voucher-list').waitFor();
    await checkShopperScreen(page, 'home');

    await page.getByRole('button', { name: /Gratis koffie/ }).first().click();
    await page.getByTestId('voucher-screen').waitFor();
    await checkShopperScreen(page, 'voucher');
    await page.getByTestId('redeem').click();
    await page.getByTestId('confirm-screen').waitFor();
    await checkShopperScreen(page, 'confirm');
    await page.getByTestId('confirm').click();
    await page.getByTestId('redeemed-screen').waitFor();
    await checkShopperScreen(page, 'redeemed');

    // Whichever coffee voucher was on top: it, and only it, was redeemed, once.
    const redeemedCode = await page.getByTestId('redeemed-screen').getAttribute('data-code');
    // Its proof for the till is the ledger's: the digits on screen, and the barcode a till's imager reads off it (#31 §2).
    const ledger = openLedgerToRead(dataFiles(suite.kiosk.dataDir).ledger);
    const proofCode = ledger.rowsForCode(redeemedCode!).find((row) => row.kind === 'redeemed')?.proofCode;
    ledger.close();
    expect(proofCode).toMatch(/^\d{10}$/);
    await expect(page.getByTestId('proof').getAttribute('data-proof-code')).resolves.toBe(proofCode);
    await expect(page.getByTestId('proof-digits').textContent()).resolves.toBe(`${proofCode!.slice(0, 3)} ${proofCode!.slice(3, 6)} ${proofCode!.slice(6)}`);
    await expect(barcodesIn(await page.screenshot())).resolves.toEqual([proofCode]);
    // Live: its clock ticks, so a photo of it is told from it.
    const clock = await page.getByTestId('proof-clock').textContent();
    await expect.poll(() => page.getByTestId('proof-clock').textContent(), { timeout: 3_000 }).not.toBe(clock);
    const redeemed = await suite.kiosk.platform.findVoucher({ code: redeemedCode! });
    expect(redeemed.data).toMatchObject({ status: 'REDEEMED', times_redeemed: 1 });
    const others = (await suite.kiosk.platform.listVouchers({ contact_uuid: sanne.uuid, limit: 100 })).data.filter((voucher) => voucher.code !== redeemedCode);
    expect(others.filter((voucher) => voucher.status === 'REDEEMED').map((voucher) => voucher.code)).toEqual(['KFR2D8WM']);
  });

  it('after her redemption the proof stays 45 s and the visit ends by itself; "Another voucher" gives her home on a 20 s idle time (#22 §2, #31 §2)', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'portrait', { fakeClock: true });
    await stopPageClock(page);
    const redeemOne = async () => {
      await page.getByRole('button', { name: /10% discount|Gratis koffie/ }).first().click();
      await page.getByTestId('redeem').and(page.locator(':enabled')).click();
      await page.getByTestId('confirm').click();
      await page.getByTestId('redeemed-screen').waitFor();
    };
    await wedgeScan(page, cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl').card);
    await page.getByTestId('voucher-list').waitFor();
    await redeemOne();
    await checkShopperScreen(page, 'redeemed-identified');

    // "Another voucher": her home again, and "are you still there?" after 20 s, not 60.
    await page.getByTestId('another-voucher').click();
    await page.getByTestId('voucher-list').waitFor();
    await page.clock.runFor(20_000 - 1);
    await expect(page.getByTestId('idle-warning').count()).resolves.toBe(0);
    await page.clock.runFor(1);
    await page.getByTestId('idle-warning').waitFor();
    await page.getByRole('button', { name: /still here/ }).click();

    // No tap after the next one: the proof stays for the walk to the till (idle.proofSeconds), then the visit is over, nothing of hers on screen.
    await redeemOne();
    await page.clock.runFor(45_000 - 1);
    await expect(page.getByTestId('redeemed-screen').isVisible()).resolves.toBe(true);
    await page.clock.runFor(1);
    await page.getByTestId('attract-screen').waitFor();
    const text = await page.evaluate(() => document.body.innerText);
    for (const trace of ['s•••', '@', 'Welcome back', 'Enjoy']) expect(text).not.toContain(trace);
    await page.close();
  });

  it('a voucher redeemed with nobody identified: the proof screen goes back to attract by itself after 45 s', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'landscape');
    // Daan's own voucher, scanned on its own: his to redeem without his card.
    await scannerBurst(page, 'KFQ7M2XA');
    await page.getByTestId('redeem').and(page.locator(':enabled')).click();
    // From here the page's clock is the test's: the done screen's wait starts on it. Installed once
    // the confirm screen stands (the Lock is one call now): not while the screen changes under it.
    await page.getByTestId('confirm-screen').waitFor();
    await page.clock.install();
    await page.getByTestId('confirm').click();
    await page.getByTestId('redeemed-screen').waitFor();
    expect((await suite.kiosk.platform.findVoucher({ code: 'KFQ7M2XA' })).data).toMatchObject({ status: 'REDEEMED', times_redeemed: 1 });

    await page.clock.fastForward(44_000);
    await expect(page.getByTestId('redeemed-screen').isVisible()).resolves.toBe(true);
    await page.clock.fastForward(1_500);
    await page.getByTestId('attract-screen').waitFor();
    await expect(page.getByTestId('redeemed-screen').count()).resolves.toBe(0);
    expect((await suite.kiosk.platform.findVoucher({ code: 'KFQ7M2XA' })).data.times_redeemed).toBe(1);
    await page.close();
  });
});
