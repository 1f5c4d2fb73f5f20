import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cardOf, checkShopperScreen, kioskSuite, openKiosk, scannerBurst, screenshot } from '../support/kiosk-journey.node.ts';
import { dataFiles } from '../../main/paths/data-files.node.ts';

const journalEntries = (dataDir: string): unknown[] => {
  const file = dataFiles(dataDir).voucherLocks;
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { entries: unknown[] }).entries : [];
};

describe('a page reloaded in the middle of a visit (a crashed or hung renderer comes back this way)', () => {
  const suite = kioskSuite({ 'session.scanner_type': 'hand_scanner' });

  it('settles the locked voucher at the platform, says sorry, please start again, then shows the attract screen', async () => {
    const { kiosk, browser } = suite;
    const page = await openKiosk(browser, kiosk);
    const sanne = cardOf(kiosk.manifest, 'sanne.devries@example.nl');
    await scannerBurst(page, sanne.card);
    await page.getByTestId('home-screen').waitFor();
    await page.getByRole('button', { name: /Gratis koffie/ }).first().click();
    await page.getByTestId('redeem').click();
    await page.getByTestId('confirm-screen').waitFor();
    const locked = (await kiosk.platform.listVouchers({ contact_uuid: sanne.uuid, limit: 100 })).data.filter((voucher) => voucher.status === 'LOCKED');
    expect(locked).toHaveLength(1);

    await page.clock.install();
    await page.reload();
    await page.getByTestId('interrupted-screen').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Sorry, please start again');
    // Settled before the page was told: released at the platform, nothing left in the journal.
    expect((await kiosk.platform.findVoucher({ code: locked[0]!.code })).data).toMatchObject({ status: 'ACTIVE', times_redeemed: 0 });
    expect(journalEntries(kiosk.dataDir)).toEqual([]);
    await checkShopperScreen(page, 'interrupted');
    await screenshot(page, 'interrupted');

    await page.clock.fastForward(8_500);
    await page.getByTestId('attract-screen').waitFor();
    await page.reload();
    // Told once: the next start is an ordinary one.
    await page.getByTestId('attract-screen').waitFor();
    await expect(page.getByTestId('interrupted-screen').count()).resolves.toBe(0);
    await page.close();
  });

  it('a page reloaded on the attract screen, or another tab starting after one closed mid-visit, shows no apology', async () => {
    const { kiosk, browser } = suite;
    const page = await openKiosk(browser, kiosk);
    await page.reload();
    await page.getByTestId('attract-screen').waitFor();

    const sanne = cardOf(kiosk.manifest, 'sanne.devries@example.nl');
    await scannerBurst(page, sanne.card);
    await page.getByTestId('home-screen').waitFor();
    await page.close();
    const other = await openKiosk(browser, kiosk);
    await expect(other.getByTestId('interrupted-screen').count()).resolves.toBe(0);
    await other.close();
  });
});
