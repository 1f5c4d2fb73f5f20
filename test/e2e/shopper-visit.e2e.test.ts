import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { platformErrors } from '../../api/errors.std.ts';
import { failure } from '../../main/loyalty/loyalty-error.test-support.ts';
import {
  cardOf,
  checkShopperScreen,
  kioskSuite,
  openKiosk,
  openKioskRecordingCalls,
  scannerBurst,
  screenshot,
  stopPageClock,
} from '../support/kiosk-journey.node.ts';

/**
 * The smaller paths of a visit on a kiosk with registration off: an idle attract screen that asks
 * nothing, the cards that get a notice instead of a home, Dutch, and a home with more vouchers
 * than one page.
 */
describe('shopper visit: idle attract, card notices, Dutch, voucher pages', () => {
  const suite = kioskSuite({ 'session.scanner_type': 'hand_scanner', 'session.enable_registration': false });

  const sanne = () => cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl');
  const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

  it('runs no polling or timers on an idle attract screen: ten minutes pass without a bridge call', async () => {
    // On the test's clock: every timer the page sets fires when the test moves ten minutes on.
    const { page, calls } = await openKioskRecordingCalls(suite.browser, suite.kiosk, 'portrait', { fakeClock: true });
    await expect.poll(() => calls.includes('getServiceStatus')).toBe(true);
    const started = calls.length;

    await page.clock.runFor(10 * 60_000);
    // A call of our own, answered: anything a timer sent before it was recorded before it.
    await expect(page.evaluate(() => window.kiosk.getAppInfo())).resolves.toMatchObject({ ok: true });
    expect(calls.slice(started)).toEqual(['getAppInfo']);
    await expect(page.getByTestId('attract-screen').isVisible()).resolves.toBe(true);
    await page.close();
  });

  it('a blocked card gets its own notice, and no Join button (landscape)', async () => {
    // The page's time stands still while the notice is looked at: it would go by itself.
    const page = await openKiosk(suite.browser, suite.kiosk, 'landscape', { fakeClock: true });
    await stopPageClock(page);
    const blocked = suite.kiosk.manifest.inactive_identifiers?.[0];
    expect(blocked).toBeDefined();
    // In the platform: the card is known, and refused as inactive.
    const refused = await failure(suite.kiosk.platform.findContactIdentifier({ contact_identifier_value: blocked! }));
    expect(refused.code).toBe(platformErrors.contactIdentifierInactive.code);

    await scannerBurst(page, blocked!);
    await page.getByTestId('notice-screen').waitFor();
    await expect(heading(page)).resolves.toBe('This card is blocked. Please ask a member of staff.');
    await expect(page.getByRole('button', { name: 'Join and link this card' }).count()).resolves.toBe(0);
    await checkShopperScreen(page, 'notice-blocked-card');
    await page.getByRole('button', { name: 'Start over' }).click();
    await page.getByTestId('attract-screen').waitFor();
    await page.close();
  });

  it('a notice goes by itself 15 s after the last touch: a visit with nobody identified ends, an identified shopper goes home', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'portrait', { fakeClock: true });
    await stopPageClock(page);
    await page.getByRole('button', { name: 'Nederlands' }).tap();
    await scannerBurst(page, suite.kiosk.manifest.inactive_identifiers![0]!);
    const notice = page.getByTestId('notice-screen');
    await notice.waitFor();

    await page.clock.runFor(14_000);
    await expect(notice.isVisible()).resolves.toBe(true);
    // A touch anywhere: the shopper is still reading, and gets the whole time again.
    await page.getByRole('heading', { level: 1 }).tap();
    await page.clock.runFor(14_000);
    await expect(notice.isVisible()).resolves.toBe(true);
    await page.clock.runFor(1_000);
    await page.getByTestId('attract-screen').waitFor();
    // The visit ended: the next shopper starts in the store's language.
    await expect(heading(page)).resolves.toBe('Scan your loyalty card');

    await scannerBurst(page, sanne().card);
    await page.getByTestId('voucher-list').waitFor();
    await scannerBurst(page, 'NOSUCH42');
    await notice.waitFor();
    await expect(heading(page)).resolves.toBe('Sorry, we don’t recognise this code.');
    await page.clock.runFor(15_000);
    await page.getByTestId('home-screen').waitFor();
    await expect(heading(page)).resolves.toBe('Welcome back, s•••@example.nl');
    await page.close();
  });

  it('an unlinked card with registration off is told so, with no Join button (portrait)', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'portrait', { fakeClock: true });
    await stopPageClock(page);
    const unlinked = suite.kiosk.manifest.unlinked_identifiers[0]!;
    expect((await suite.kiosk.platform.findContactIdentifier({ contact_identifier_value: unlinked })).data).toMatchObject({ active: true, contact: null });
    await expect(page.getByRole('button', { name: 'Join now' }).count()).resolves.toBe(0);

    await scannerBurst(page, unlinked);
    await page.getByTestId('notice-screen').waitFor();
    await expect(heading(page)).resolves.toBe('This card is not linked to an account yet.');
    await expect(page.getByRole('button', { name: 'Join and link this card' }).count()).resolves.toBe(0);
    await checkShopperScreen(page, 'notice-unlinked-no-join');
    // Nothing was made or linked.
    expect((await suite.kiosk.platform.findContactIdentifier({ contact_identifier_value: unlinked })).data).toMatchObject({ contact: null });
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('attract-screen').waitFor();
    await page.close();
  });

  it('switches to Dutch: attract and home speak Dutch, and the next shopper starts in English again', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'portrait');
    await page.getByRole('button', { name: 'Nederlands' }).tap();
    await expect(page.getByRole('button', { name: 'Nederlands' }).getAttribute('aria-pressed')).resolves.toBe('true');
    await expect(heading(page)).resolves.toBe('Scan je klantenkaart');
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('nl');
    // On the screen itself: the screen reader's announcement (a live region) says it too.
    await page.getByTestId('attract-screen').getByText('Heb je een voucher? Scan die op dezelfde manier.').waitFor();
    await checkShopperScreen(page, 'dutch-attract');

    await scannerBurst(page, sanne().card);
    await page.getByTestId('home-screen').waitFor();
    await page.getByTestId('voucher-list').waitFor();
    await expect(heading(page)).resolves.toBe('Welkom terug, s•••@example.nl');
    await page.getByRole('button', { name: 'Ik ben klaar' }).waitFor();
    await checkShopperScreen(page, 'dutch-home');

    // Done: the next shopper starts in the store's language, not this one's.
    await page.getByRole('button', { name: 'Ik ben klaar' }).tap();
    await page.getByTestId('attract-screen').waitFor();
    await expect(heading(page)).resolves.toBe('Scan your loyalty card');
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
    await page.close();
  });

  it('a home taller than its screen (large text, low reach) says "More below" at its bottom edge until scrolled there (#33 §13)', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'portrait');
    await page.getByTestId('large-text').tap();
    await page.getByTestId('low-reach').tap();
    await scannerBurst(page, sanne().card);
    await page.getByTestId('voucher-list').waitFor();
    const content = page.getByTestId('home-screen').locator('.content');
    const cue = () =>
      content.evaluate((element) => {
        const after = getComputedStyle(element, '::after');
        return { overflows: element.scrollHeight > element.clientHeight, text: after.content, shown: Number(after.opacity) > 0.9 };
      });
    // Said on the edge in words, and kept from assistive technology (empty alt text after the slash).
    await expect.poll(cue).toEqual({ overflows: true, text: '"↓ More below" / ""', shown: true });
    await screenshot(page, 'home-more-below');
    await content.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    await expect.poll(async () => (await cue()).shown).toBe(false);
    await page.getByRole('button', { name: 'I’m done' }).tap();
    await page.getByTestId('attract-screen').waitFor();
    await page.close();
  });

  it('takes up a voucher scanned while the card just scanned is still being looked up, instead of losing it', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'portrait');
    await scannerBurst(page, sanne().card);
    await scannerBurst(page, 'KOFFIE24');
    await page.getByTestId('voucher-screen').waitFor();
    await expect(heading(page)).resolves.toBe('Gratis koffie');
    // Both scans counted: the voucher can be redeemed, and Back leads to Sanne's home, not attract.
    await page.getByTestId('redeem').and(page.locator(':enabled')).waitFor();
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByTestId('home-screen').waitFor();
    await page.close();
  });

  it('pages through more vouchers than fit one page: each page is the platform\'s page', async () => {
    const { uuid } = sanne();
    const coffee = suite.kiosk.manifest.promotions.find((promotion) => promotion.name === 'Gratis koffie')!;
    for (let made = 0; made < 14; made++) await suite.kiosk.platform.createVoucher({ promotion_uuid: coffee.uuid, contact_uuid: uuid });
    const listed = (page: number) => suite.kiosk.platform.listVouchers({ contact_uuid: uuid, status: 'ACTIVE', limit: 12, page });
    const first = await listed(1);
    expect(first.meta.last_page).toBe(2);

    const page = await openKiosk(suite.browser, suite.kiosk, 'landscape');
    await scannerBurst(page, sanne().card);
    const list = page.getByTestId('voucher-list');
    await list.waitFor();
    // The names on screen, in order, are those of the platform's page.
    const shownNames = () => list.locator('.voucher strong').allTextContents();
    const namesOf = (vouchers: typeof first.data) => vouchers.map((voucher) => voucher.name || voucher.promotion.name);
    await expect.poll(shownNames).toEqual(namesOf(first.data));
    expect(first.data).toHaveLength(12);
    await page.getByText('Page 1 of 2').waitFor();
    await expect(page.getByRole('button', { name: 'Previous' }).isDisabled()).resolves.toBe(true);
    await checkShopperScreen(page, 'home-vouchers-page-1');

    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 of 2').waitFor();
    const second = await listed(2);
    expect(second.data.length).toBe(first.meta.total - 12);
    await expect.poll(shownNames).toEqual(namesOf(second.data));
    await expect(page.getByRole('button', { name: 'Next' }).isDisabled()).resolves.toBe(true);
    await checkShopperScreen(page, 'home-vouchers-page-2');

    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByText('Page 1 of 2').waitFor();
    await expect.poll(shownNames).toEqual(namesOf(first.data));
    await page.close();
  });
});
