import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.node.ts';
import { cardOf, kioskLog, openKiosk, screenshot, startKiosk, scannerBurst, type KioskUnderTest } from '../support/kiosk-journey.node.ts';

/**
 * A kiosk that dies hard (SIGKILL: no quit handler, no release) and starts again on the same data
 * folder. The embedded sandbox keeps its state in <dataDir>/sandbox, so the voucher's fate is
 * read from the sandbox the restarted kiosk runs (on a new port: the manifest is read again).
 */

const JOURNAL = 'voucher-locks.json';

function journalEntries(dataDir: string): unknown[] {
  const file = path.join(dataDir, JOURNAL);
  if (!fs.existsSync(file)) return [];
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { entries: unknown[] }).entries;
}

describe('crash recovery: voucher locks survive a killed kiosk', () => {
  let browser: Browser;
  const kiosks: KioskUnderTest[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterEach(async () => {
    for (const kiosk of kiosks.splice(0)) await kiosk.host.stop('SIGKILL');
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function start(dataDir?: string) {
    const kiosk = await startKiosk({ 'session.scanner_type': 'hand_scanner' }, dataDir);
    kiosks.push(kiosk);
    return kiosk;
  }

  /** Card → home → her top coffee voucher → Redeem: the confirm screen, that voucher locked for this kiosk. */
  async function toConfirm(kiosk: KioskUnderTest, shots: string): Promise<{ page: Page; code: string }> {
    const page = await openKiosk(browser, kiosk);
    const sanne = cardOf(kiosk.manifest, 'sanne.devries@example.nl');
    await scannerBurst(page, sanne.card);
    await page.getByTestId('home-screen').waitFor();
    await page.getByRole('button', { name: /Gratis koffie/ }).first().click();
    await page.getByTestId('voucher-screen').waitFor();
    await page.getByTestId('redeem').click();
    await page.getByTestId('confirm-screen').waitFor();
    await screenshot(page, `${shots}-confirm`);
    // Which coffee voucher was on top does not matter: exactly one of hers is locked now.
    const hers = (await kiosk.platform.listVouchers({ contact_uuid: sanne.uuid, limit: 100 })).data;
    const locked = hers.filter((voucher) => voucher.status === 'LOCKED');
    expect(locked).toHaveLength(1);
    return { page, code: locked[0]!.code };
  }

  it('a lock held on the confirm screen is released by the next start, never redeemed', async () => {
    const first = await start();
    const { page, code } = await toConfirm(first, 'crash-locked');
    const locked = (await first.platform.findVoucher({ code })).data;
    expect(locked).toMatchObject({ status: 'LOCKED', times_redeemed: 0 });
    expect(journalEntries(first.dataDir)).toHaveLength(1);

    await first.host.stop('SIGKILL');
    await page.close();
    // Nothing let go of the lock on the way down: the journal still holds it.
    expect(journalEntries(first.dataDir)).toHaveLength(1);

    const second = await start(first.dataDir);
    expect(second.manifest.base_url).toBe(second.host.sandbox!.baseUrl);
    // recover() runs at start; within a few seconds the voucher is free again, and stays so.
    await expect
      .poll(async () => (await second.platform.findVoucher({ code })).data.status, { timeout: 5_000, interval: 100 })
      .toBe('ACTIVE');
    // Released, not redeemed and not locked again: it stays ACTIVE with no redemption counted.
    for (let look = 0; look < 5; look++) {
      expect((await second.platform.findVoucher({ code })).data).toMatchObject({ status: 'ACTIVE', times_redeemed: 0 });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await expect.poll(() => journalEntries(first.dataDir)).toEqual([]);
    const settled = kioskLog(first.dataDir).find((line) => line.message === 'voucher locks from the last run settled');
    expect(settled?.settled).toEqual([{ voucherUuid: locked.uuid, outcome: 'released' }]);

    // The restarted kiosk serves, and the voucher is as good as new: redeemed now, exactly once.
    const again = await openKiosk(browser, second);
    await screenshot(again, 'crash-restarted-attract');
    await scannerBurst(again, cardOf(second.manifest, 'sanne.devries@example.nl').card);
    await again.getByTestId('home-screen').waitFor();
    await scannerBurst(again, code);
    await again.getByTestId('voucher-screen').waitFor();
    await again.getByTestId('redeem').click();
    await again.getByTestId('confirm').click();
    await again.getByTestId('redeemed-screen').waitFor();
    expect((await second.platform.findVoucher({ code })).data).toMatchObject({ status: 'REDEEMED', times_redeemed: 1 });
    await again.close();
  });

  it('a redemption that landed before the crash stays exactly one redemption after the restart', async () => {
    const first = await start();
    const { page, code } = await toConfirm(first, 'crash-redeemed');
    await page.getByTestId('confirm').click();
    await page.getByTestId('redeemed-screen').waitFor();
    await screenshot(page, 'crash-redeemed-done');
    await expect(page.getByTestId('redeemed-screen').getAttribute('data-code')).resolves.toBe(code);
    expect((await first.platform.findVoucher({ code })).data).toMatchObject({ status: 'REDEEMED', times_redeemed: 1 });
    expect(journalEntries(first.dataDir)).toEqual([]);

    await first.host.stop('SIGKILL');
    await page.close();

    const second = await start(first.dataDir);
    const page2 = await openKiosk(browser, second);
    // Both starts logged; the second one's recovery found nothing to settle.
    await expect.poll(() => kioskLog(first.dataDir).filter((line) => line.message === 'kiosk services started').length).toBe(2);
    expect(kioskLog(first.dataDir).some((line) => line.message === 'voucher locks from the last run settled')).toBe(false);
    const after = (await second.platform.findVoucher({ code })).data;
    expect(after).toMatchObject({ status: 'REDEEMED', times_redeemed: 1 });
    expect(journalEntries(first.dataDir)).toEqual([]);
    // Scanning the spent voucher now shows it as used, not redeemable.
    await scannerBurst(page2, code);
    await page2.getByTestId('voucher-screen').waitFor();
    await expect(page2.getByTestId('redeem').count()).resolves.toBe(0);
    await screenshot(page2, 'crash-redeemed-rescan');
    await page2.close();
  });
});
