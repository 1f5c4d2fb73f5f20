import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '../../common/config-schema.std.ts';
import { openLedgerToRead } from '../../main/ledger/ledger.node.ts';
import { dataFiles } from '../../main/paths/data-files.node.ts';
import { shopperMessages } from '../../renderer/i18n/messages/shopper.std.ts';
import { barcodesOf, rasterImagesOf } from '../support/escpos-stream.std.ts';
import { cardOf, checkShopperScreen, kioskSuite, openKiosk, scannerBurst, screenshot, type KioskUnderTest } from '../support/kiosk-journey.node.ts';
import { openConsoleFirstRun, shootBothSizes } from '../support/manager-console.node.ts';
import { pngOf } from '../support/png.node.ts';
import { standInPrinterOnTcp, type StandInPrinter } from '../support/standin-printer.node.ts';

/**
 * A kiosk with a receipt printer (#31 §3): the stand-in ESC/POS printer on a TCP port, its address
 * in the kiosk's settings before the kiosk starts.
 */
function kioskWithPrinter(settings: Record<string, unknown>) {
  const kioskSettings: Record<string, unknown> = { 'session.scanner_type': 'hand_scanner', ...settings };
  let printer: StandInPrinter;
  // Registered before the suite's own: the printer is listening, and named, when the kiosk starts.
  beforeAll(async () => {
    printer = await standInPrinterOnTcp();
    Object.assign(kioskSettings, printer.settings);
  });
  const suite = kioskSuite(kioskSettings);
  afterAll(async () => printer?.close());
  return { suite, printer: () => printer };
}

/** Sanne's card, her top coffee voucher and Redeem: the confirm screen, or the problem Redeem met. */
async function toRedeem(page: Page, kiosk: KioskUnderTest): Promise<void> {
  await scannerBurst(page, cardOf(kiosk.manifest, 'sanne.devries@example.nl').card);
  await page.getByTestId('home-screen').waitFor();
  await page.getByRole('button', { name: /Gratis koffie/ }).first().click();
  await page.getByTestId('voucher-screen').waitFor();
  await page.getByTestId('redeem').and(page.locator(':enabled')).click();
}

/** One more coffee voucher for Sanne: her own two are used up by the first redemptions. */
async function giveSanneACoffee(kiosk: KioskUnderTest): Promise<void> {
  const coffee = kiosk.manifest.promotions.find((promotion) => promotion.name === 'Gratis koffie')!;
  await kiosk.platform.createVoucher({ promotion_uuid: coffee.uuid, contact_uuid: cardOf(kiosk.manifest, 'sanne.devries@example.nl').uuid });
}

async function languageOf(page: Page): Promise<Locale> {
  return (await page.locator('html').getAttribute('lang')) as Locale;
}

/** The shopper's languages besides the store's default (en), each chosen on the attract screen. */
const OTHER_LANGUAGES = LOCALES.filter((locale) => locale !== 'en');
const EVERY_LANGUAGE = { 'locale.enabled': [...LOCALES] };

async function openKioskIn(suite: { browser: Browser; kiosk: KioskUnderTest }, locale: Locale): Promise<Page> {
  const page = await openKiosk(suite.browser, suite.kiosk);
  await page.getByRole('button', { name: shopperMessages[locale]['language.name'] }).click();
  await expect.poll(() => languageOf(page)).toBe(locale);
  return page;
}

describe('a printed slip: one redemption, one slip, on record (#31 §3)', () => {
  const { suite, printer } = kioskWithPrinter(EVERY_LANGUAGE);

  it('prints exactly one slip whose Code 128 is the proof on screen, and the proof code finds the ledger row', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk);
    await toRedeem(page, suite.kiosk);
    await page.getByTestId('confirm-screen').waitFor();
    await expect(page.getByTestId('no-slip').count()).resolves.toBe(0);
    await page.getByTestId('confirm').click();
    await page.getByTestId('redeemed-screen').waitFor();

    const t = shopperMessages[await languageOf(page)];
    await expect(page.getByTestId('till-instruction').textContent()).resolves.toBe(t['redeemed.take_slip']);
    const proofCode = await page.getByTestId('proof').getAttribute('data-proof-code');
    expect(printer().slips).toHaveLength(1);
    expect(barcodesOf(printer().slips[0]!)).toEqual([{ format: 'code128', value: proofCode }]);
    await checkShopperScreen(page, 'redeemed-slip');
    await screenshot(page, 'redeemed-slip');

    const ledger = openLedgerToRead(dataFiles(suite.kiosk.dataDir).ledger);
    try {
      const redeemed = ledger.rowsForProof(proofCode!).find((row) => row.kind === 'redeemed');
      expect(redeemed).toBeDefined();
      expect(ledger.slipsOf(proofCode!)).toEqual([expect.objectContaining({ redemptionSeq: redeemed!.seq, outcome: 'printed', duplicate: false })]);
    } finally {
      ledger.close();
    }
    await page.close();
  });

  it('out of paper before the redemption: the confirm screen says so, and the proof is on screen only (printer.required off)', async () => {
    printer().setPaper('out');
    const page = await openKiosk(suite.browser, suite.kiosk);
    await toRedeem(page, suite.kiosk);
    await page.getByTestId('confirm-screen').waitFor();
    const t = shopperMessages[await languageOf(page)];
    await expect(page.getByTestId('no-slip').textContent()).resolves.toBe(t['confirm.no_slip']);
    await checkShopperScreen(page, 'confirm-no-slip');
    await screenshot(page, 'confirm-no-slip');
    const printedBefore = printer().slips.length;
    await page.getByTestId('confirm').click();
    await page.getByTestId('redeemed-screen').waitFor();
    await expect(page.getByTestId('till-instruction').getAttribute('data-slip')).resolves.toBe('not_printed');
    await expect(page.getByTestId('till-instruction').textContent()).resolves.toBe(t['redeemed.slip_failed']);
    expect(printer().slips).toHaveLength(printedBefore);
    printer().setPaper('ok');
    // Reloaded: the slip that was never started does not come out now either.
    expect(printer().slips).toHaveLength(printedBefore);
    await page.close();
  });

  it.each(OTHER_LANGUAGES)('tells the shopper about the slip in %s: none coming, not printed, take it (look at the screenshots)', async (locale) => {
    const t = shopperMessages[locale];
    const redeemAndSay = async (paper: 'out' | 'ok') => {
      await giveSanneACoffee(suite.kiosk);
      printer().setPaper(paper);
      const page = await openKioskIn(suite, locale);
      await toRedeem(page, suite.kiosk);
      await page.getByTestId('confirm-screen').waitFor();
      if (paper === 'out') {
        await expect(page.getByTestId('no-slip').textContent()).resolves.toBe(t['confirm.no_slip']);
        await checkShopperScreen(page, `confirm-no-slip-${locale}`);
      }
      await page.getByTestId('confirm').click();
      await page.getByTestId('redeemed-screen').waitFor();
      await expect(page.getByTestId('till-instruction').textContent()).resolves.toBe(t[paper === 'out' ? 'redeemed.slip_failed' : 'redeemed.take_slip']);
      await checkShopperScreen(page, `redeemed-slip-${paper === 'out' ? 'failed' : 'printed'}-${locale}`);
      await page.close();
    };
    await redeemAndSay('out');
    await redeemAndSay('ok');
  });

  it('prints the logo the manager chose in the console, made black and white and as wide as the paper', async () => {
    printer().setPaper('ok');
    const page = await openKiosk(suite.browser, suite.kiosk);
    await openConsoleFirstRun(page, suite.kiosk.dataDir);
    // Twice the paper's width, its left half dark blue: it prints 576 dots wide, the left half black.
    const chosen = Buffer.from(pngOf(1152, 288, (x) => x < 576), 'base64');
    await page.getByTestId('slip-logo-file').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: chosen });
    await expect(page.getByTestId('slip-logo').evaluate((image: HTMLImageElement) => image.decode().then(() => [image.naturalWidth, image.naturalHeight]))).resolves.toEqual([576, 144]);
    await page.getByTestId('settings-save').tap();
    await page.getByTestId('save-done').waitFor();

    const printedBefore = printer().slips.length;
    await page.getByTestId('printer-test').click();
    await page.locator('[data-testid="printer-test-result"][data-printed="true"]').waitFor();
    expect(printer().slips).toHaveLength(printedBefore + 1);
    expect(rasterImagesOf(printer().slips.at(-1)!)).toEqual([{ width: 576, height: 144, black: 288 * 144 }]);
    await expect(page.getByTestId('last-slip').locator('img').getAttribute('src')).resolves.toContain(encodeURIComponent('data:image/png;base64,'));
    await shootBothSizes(page, 'console-printer-logo', () => page.getByTestId('slip-logo').evaluate((logo) => logo.scrollIntoView({ block: 'start' })));
    await page.close();
  });
});

describe('a printed slip the store requires (printer.required)', () => {
  const { suite, printer } = kioskWithPrinter({ 'printer.required': true, ...EVERY_LANGUAGE });

  it.each(OTHER_LANGUAGES)('tells the shopper in %s that nothing can be redeemed without paper (look at the screenshots)', async (locale) => {
    printer().setPaper('out');
    const page = await openKioskIn(suite, locale);
    await toRedeem(page, suite.kiosk);
    await expect.poll(() => page.getByTestId('problem').textContent()).toBe(shopperMessages[locale]['problem.printer.unavailable']);
    await checkShopperScreen(page, `voucher-printer-required-${locale}`);
    await page.close();
  });

  it('with the paper out, locks nothing and tells the shopper; with paper, redeems and prints', async () => {
    printer().setPaper('out');
    const page = await openKiosk(suite.browser, suite.kiosk);
    await toRedeem(page, suite.kiosk);
    const t = shopperMessages[await languageOf(page)];
    await expect.poll(() => page.getByTestId('problem').textContent()).toBe(t['problem.printer.unavailable']);
    await expect(page.getByTestId('confirm-screen').count()).resolves.toBe(0);
    // Nothing was locked: none of her vouchers is held for this kiosk.
    const sanne = cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl');
    const hers = (await suite.kiosk.platform.listVouchers({ contact_uuid: sanne.uuid, limit: 100 })).data;
    expect(hers.filter((voucher) => voucher.status === 'LOCKED')).toEqual([]);
    await screenshot(page, 'voucher-printer-required');

    // Paper loaded: back, and the same voucher again.
    printer().setPaper('ok');
    await page.getByRole('button', { name: t['common.back'], exact: true }).last().click();
    await page.getByTestId('home-screen').waitFor();
    await page.getByRole('button', { name: /Gratis koffie/ }).first().click();
    await page.getByTestId('redeem').and(page.locator(':enabled')).click();
    await page.getByTestId('confirm-screen').waitFor();
    await page.getByTestId('confirm').click();
    await page.getByTestId('redeemed-screen').waitFor();
    await expect(page.getByTestId('till-instruction').getAttribute('data-slip')).resolves.toBe('printed');
    expect(printer().slips).toHaveLength(1);
    await page.close();
  });
});
