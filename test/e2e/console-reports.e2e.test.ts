import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { KIOSK_VIEWPORTS, launchChromium } from '../support/chromium.node.ts';
import { parse as parseCsv } from 'csv-parse/sync';
import { openConsoleFirstRun, openConsoleWithPin, shootBothSizes } from '../support/manager-console.node.ts';
import { expectAccessible, kioskctl, kioskEvents, startKiosk, type KioskUnderTest } from '../support/kiosk-journey.node.ts';

/**
 * The console's Reports tab on a demo kiosk whose ledger holds what its own bridge did: two
 * redemptions and a cancel, made through window.kiosk as the shopper screens make them.
 */
describe('manager console: reports (#30 §2, §3, §4)', () => {
  let kiosk: KioskUnderTest;
  let browser: Browser;
  let page: Page;
  const codes: string[] = [];

  beforeAll(async () => {
    // Every language the console speaks, for its screenshots.
    kiosk = await startKiosk({ 'locale.enabled': ['en', 'nl', 'de', 'fr'] });
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
    await openConsoleFirstRun(page, kiosk.dataDir);
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

    // Checked against the platform now: both redemptions are there, as the kiosk recorded them.
    await tab().getByTestId('reports-reconcile').click();
    const checked = tab().getByTestId('x-report-section').getByTestId('report-reconciliation');
    await expect.poll(() => checked.getAttribute('data-state')).toBe('done');
    expect(await checked.textContent()).toMatch(/2 vouchers checked; no open attempt\s*The platform agrees with every redemption\./);

    // A CSV of a range of days: a backwards range cannot be asked for; a forward one holds every row.
    await tab().getByTestId('reports-range-from').fill('2026-12-31');
    await tab().getByTestId('reports-range-to').fill('2026-01-01');
    await expect(tab().getByTestId('reports-range-export').isDisabled()).resolves.toBe(true);
    await tab().getByTestId('reports-range-from').fill('2000-01-01');
    await tab().getByTestId('reports-range-to').fill('2100-12-31');
    await shootBothSizes(page, 'console-reports-range', () => tab().getByTestId('reports-range-export').scrollIntoViewIfNeeded());
    const [download] = await Promise.all([page.waitForEvent('download'), tab().getByTestId('reports-range-export').click()]);
    expect(download.suggestedFilename()).toBe('loyalty-kiosk-2000-01-01-to-2100-12-31.csv');
    const rows = parseCsv(fs.readFileSync((await download.path())!, 'utf8'), { columns: true }) as Array<{ kind: string; voucherCode: string }>;
    expect(rows.map((row) => row.kind)).toEqual(['locked', 'redeemed', 'locked', 'redeemed', 'locked', 'released']);
    expect(rows.map((row) => row.voucherCode)).toEqual([codes[0], codes[0], codes[1], codes[1], codes[2], codes[2]]);

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

  it('checks the Z against the platform by itself once the kiosk is idle, and shows it beside the Z', async () => {
    // The console open, the kiosk is not idle: locked, it is, and the check runs.
    await page.getByTestId('console-lock').click();
    await page.getByTestId('attract-screen').waitFor();
    await expect.poll(() => kioskEvents(kiosk.dataDir, 'ledger.reconciled').map((line) => [line.shift, line.mismatches]), { timeout: 30_000 }).toEqual([[1, 0]]);
    await openConsoleWithPin(page);
    await page.getByTestId('tab-reports').click();
    await tab().getByTestId('reports-z').first().click();
    const z = tab().getByTestId('z-report-section').getByTestId('report-reconciliation');
    await expect.poll(() => z.getAttribute('data-state')).toBe('done');
    expect(await z.textContent()).toContain('The platform agrees with every redemption.');
  });

  it("speaks the manager's language: the tab in Dutch, German and French (look at the screenshots)", async () => {
    /** The store's language set by kioskctl, as an administrator would: the open console follows it. */
    const storeSpeaks = async (locale: 'en' | 'nl' | 'de' | 'fr') => {
      const reloads = kioskEvents(kiosk.dataDir, 'config.reloaded').length;
      expect(await kioskctl(kiosk.dataDir, 'config', 'set', 'locale.default', locale)).toMatchObject({ code: 0 });
      await expect.poll(() => kioskEvents(kiosk.dataDir, 'config.reloaded').length).toBeGreaterThan(reloads);
      await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(locale);
    };
    for (const locale of ['nl', 'de', 'fr'] as const) {
      await storeSpeaks(locale);
      await tab().getByTestId('reports-reconcile').click();
      await tab().getByTestId('x-report-section').getByTestId('report-reconciliation').waitFor();
      await shootBothSizes(page, `console-reports-${locale}`);
      await page.setViewportSize({ width: 1366, height: 768 });
      await page.screenshot({ path: path.join('test-results', 'screens', `console-reports-${locale}-1366x768.png`) });
      await page.setViewportSize(KIOSK_VIEWPORTS.portrait);
    }
    expect(await tab().getByTestId('reports-reconcile').textContent()).toContain('Vérifier avec la plateforme');
    await storeSpeaks('en');
  });

  it('takes a Z from kioskctl through the running kiosk, its ledger\'s one writer (#30 §2)', async () => {
    const z = await kioskctl(kiosk.dataDir, 'report', 'z');
    expect([z.code, z.stdout]).toEqual([0, expect.stringMatching(/^Z 2 \(shift 2\)/)]);
    expect(kioskEvents(kiosk.dataDir, 'ledger.z_by_kioskctl')).toHaveLength(1);
    await tab().getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => tab().getByTestId('reports-z').count()).toBe(2);
  });

  it('is reached and used by keys alone: arrows along the tabs to it, Enter on a Z to open it', async () => {
    await page.getByTestId('tab-settings').click();
    // Settings, Vouchers, Reports (no Reward attributes: console.platformAdmin is off on a kiosk).
    for (let step = 0; step < 2; step++) await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('tab-reports');
    await tab().waitFor();
    await page.getByTestId('reports-z').first().focus();
    await page.keyboard.press('Enter');
    // Newest first: kioskctl's Z.
    await expect.poll(() => tab().getByTestId('z-report-section').locator('h2').textContent()).toBe('Z report 2');
    expect(fs.existsSync(path.join('test-results', 'screens', 'console-reports-portrait.png'))).toBe(true);
  });
});
