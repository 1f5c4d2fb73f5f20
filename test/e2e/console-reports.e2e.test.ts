import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { KIOSK_VIEWPORTS, launchChromium } from '../support/chromium.node.ts';
import { openConsoleFirstRun, shootBothSizes } from '../support/manager-console.node.ts';
import { expectAccessible, startKiosk, type KioskUnderTest } from '../support/kiosk-journey.node.ts';

/**
 * The console's Reports tab on a demo kiosk whose ledger holds what its own bridge did: two
 * redemptions and a cancel, made through window.kiosk as the shopper screens make them.
 */
describe('manager console: reports (#30 §2, §4)', () => {
  let kiosk: KioskUnderTest;
  let browser: Browser;
  let page: Page;
  const codes: string[] = [];

  beforeAll(async () => {
    kiosk = await startKiosk();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: KIOSK_VIEWPORTS.portrait, hasTouch: true, timezoneId: 'Europe/Amsterdam' });
    await page.goto(kiosk.host.url);
    await page.getByTestId('attract-screen').waitFor();
    const { promotions, contacts } = kiosk.manifest;
    for (const outcome of ['redeem', 'redeem', 'cancel'] as const) {
      const voucher = (await kiosk.platform.createVoucher({ promotion_uuid: promotions[0]!.uuid, contact_uuid: contacts[0]!.uuid })).data;
      codes.push(voucher.code);
      const answered = await page.evaluate(
        async ({ uuid, code, outcome }) => {
          const locked = await window.kiosk.lockVoucher({ voucherUuid: uuid, code });
          if (!locked.ok) return locked;
          return outcome === 'redeem' ? window.kiosk.redeemVoucher({ voucherUuid: uuid }) : window.kiosk.releaseVoucher({ voucherUuid: uuid, reason: 'cancel' });
        },
        { uuid: voucher.uuid, code: voucher.code, outcome },
      );
      expect(answered).toMatchObject({ ok: true });
    }
    await openConsoleFirstRun(page);
  });

  afterAll(async () => {
    await browser?.close();
    await kiosk?.host.stop();
  });

  const tab = () => page.getByTestId('reports-tab');

  it('shows the shift so far, closes it with a Z after a confirmation, lists it, and finds one voucher\'s story', async () => {
    await page.getByTestId('tab-reports').click();
    await expect.poll(() => tab().getByTestId('report-redemptions').first().textContent()).toBe('2');
    await expect.poll(() => tab().getByTestId('x-report-section').textContent()).toContain('the shopper cancelled · 1');
    await expectAccessible(page, 'reports tab');
    await shootBothSizes(page, 'console-reports');
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.screenshot({ path: path.join('test-results', 'screens', 'console-reports-1366x768.png') });
    await page.setViewportSize(KIOSK_VIEWPORTS.portrait);

    // A Z is never a single tap: the confirmation comes first, and Cancel closes nothing.
    await tab().getByTestId('reports-close').click();
    await tab().getByRole('button', { name: 'Cancel' }).click();
    await expect(tab().getByTestId('reports-close-confirm').count()).resolves.toBe(0);
    await tab().getByTestId('reports-close').click();
    await tab().getByTestId('reports-close-confirm').click();
    await tab().getByTestId('z-report-section').waitFor();
    expect(await tab().getByTestId('z-report-section').getByTestId('report-redemptions').textContent()).toBe('2');
    await expect.poll(() => tab().getByTestId('x-report-section').getByTestId('report-redemptions').textContent()).toBe('0');
    expect(await tab().getByTestId('reports-z').allTextContents()).toEqual([expect.stringMatching(/^Z 1 · .* · 2 redemptions$/)]);

    // "The kiosk took my voucher": its code, typed or scanned, tells when and how it ended.
    await tab().getByLabel('Voucher code').fill(codes[2]!);
    await tab().getByLabel('Voucher code').press('Enter');
    await expect.poll(() => tab().getByTestId('reports-found').locator('li').evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.kind))).toEqual(['locked', 'released']);
    await shootBothSizes(page, 'console-reports-found', () => tab().getByTestId('reports-found').scrollIntoViewIfNeeded());
  });

  it('is reached and used by keys alone: arrows along the tabs to it, Enter on a Z to open it', async () => {
    await page.getByTestId('tab-settings').click();
    for (let step = 0; step < 3; step++) await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('tab-reports');
    await tab().waitFor();
    await page.getByTestId('reports-z').first().focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => tab().getByTestId('z-report-section').locator('h2').textContent()).toBe('Z report 1');
    expect(fs.existsSync(path.join('test-results', 'screens', 'console-reports-portrait.png'))).toBe(true);
  });
});
