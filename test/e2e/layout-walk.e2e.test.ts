import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Locale } from '../../common/config-schema.std.ts';
import { shopperMessages } from '../../renderer/i18n/messages/shopper.std.ts';
import { cardOf, kioskSuite, openKiosk, scannerBurst, stopPageClock } from '../support/kiosk-journey.node.ts';
import { busyBridge } from '../support/busy-bridge.node.ts';
import { walkSizes } from '../support/layout.node.ts';

/**
 * Every shopper screen at every kiosk size (LAYOUT_SIZES), in each language: every control lies
 * wholly inside the screen and is not covered. The screenshots land in test-results/layout/<language>.
 */
const LANGUAGES: Locale[] = ['en', 'nl', 'de', 'fr'];

/** Fills each screen the way the longest demo texts would. */
const LONG_EMAIL = 'olivia.smith@example.com';

describe('layout: every shopper screen fits every kiosk', () => {
  const suite = kioskSuite({
    'session.scanner_type': 'hand_scanner',
    'session.enable_on_screen_keyboard': true,
    'session.enable_email_identification': true,
    'session.enable_registration': true,
    'locale.enabled': LANGUAGES,
  });

  it.each(LANGUAGES)('in %s', async (language) => {
    const t = (key: keyof (typeof shopperMessages)['en']) => shopperMessages[language][key];
    let bridge!: Awaited<ReturnType<typeof busyBridge>>;
    const page = await openKiosk(suite.browser, suite.kiosk, 'portrait', { fakeClock: true, beforeLoad: async (page) => (bridge = await busyBridge(page)) });
    // Time stands still while a screen is walked: no idle time or countdown ends one half-way.
    await stopPageClock(page);
    const problems: string[] = [];
    const walk = async (screen: string) => problems.push(...(await walkSizes(page, language, screen)));
    const button = (name: string) => page.getByRole('button', { name, exact: true });
    const shows = (testid: string) => page.getByTestId(testid).waitFor();
    const sanne = cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl').card;

    await button(shopperMessages[language]['language.name']).click();
    await walk('attract');
    // A scan the platform is too busy to look up is told on the attract screen itself.
    bridge.busyOnce('lookupScan');
    await scannerBurst(page, sanne);
    await page.getByTestId('problem').waitFor();
    await walk('attract-busy');

    await page.getByTestId('type-code').click();
    await shows('type-code-screen');
    await walk('type-code');
    await back(page, t);

    await page.getByTestId('try-sample').click();
    await shows('samples-screen');
    await walk('samples');
    await back(page, t);

    await button(t('attract.forgot_card')).click();
    await shows('email-screen');
    await page.getByRole('textbox').fill(LONG_EMAIL);
    await walk('email');
    await back(page, t);

    await button(t('attract.join')).click();
    await shows('register-screen');
    await walk('register');
    await button(t('register.terms.read')).click();
    await shows('terms-dialog');
    await walk('register-terms');
    await button(t('common.close')).click();
    await back(page, t);

    await scannerBurst(page, suite.kiosk.manifest.unlinked_identifiers[0]!);
    await shows('notice-screen');
    await walk('notice-unlinked');
    await back(page, t);

    await scannerBurst(page, suite.kiosk.manifest.inactive_identifiers![0]!);
    await shows('notice-screen');
    await walk('notice-blocked');
    await back(page, t);

    await scannerBurst(page, sanne);
    await page.getByTestId('voucher-list').waitFor();
    await walk('home');

    await page.getByTestId('voucher-list').getByRole('button').first().click();
    await shows('voucher-screen');
    await page.getByTestId('redeem').and(page.locator(':enabled')).waitFor();
    await walk('voucher');

    await page.getByTestId('redeem').click();
    await shows('confirm-screen');
    await walk('confirm');

    await button(t('confirm.confirm')).click();
    await shows('redeemed-screen');
    await walk('redeemed');

    await page.getByTestId('another-voucher').click();
    await page.getByTestId('voucher-list').waitFor();
    await page.clock.runFor(20_000);
    await shows('idle-warning');
    await walk('idle-warning');
    await page.keyboard.press('Shift');
    await page.getByTestId('idle-warning').waitFor({ state: 'detached' });

    // A visit a reload cut short is told so, and starts again.
    await page.clock.resume();
    await page.reload();
    await shows('interrupted-screen');
    await page.locator('#boot-cover').waitFor({ state: 'detached' });
    await stopPageClock(page);
    // A new visit, in the store's language: this shopper chooses theirs again.
    await button(shopperMessages[language]['language.name']).click();
    await walk('interrupted');

    await scannerBurst(page, sanne);
    await page.getByTestId('voucher-list').waitFor();
    await button(t('session.start.regular')).click();
    await shows('portal-screen');
    await walk('portal');

    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('layout: the attract screen with the camera picture fits every kiosk', () => {
  // Chromium's own fake camera (a moving test pattern), allowed without asking.
  const suite = kioskSuite({ 'session.scanner_type': 'camera', 'locale.enabled': LANGUAGES }, {}, [
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
  ]);

  it.each(LANGUAGES)('in %s', async (language) => {
    let bridge!: Awaited<ReturnType<typeof busyBridge>>;
    const page = await openKiosk(suite.browser, suite.kiosk, 'portrait', { beforeLoad: async (page) => (bridge = await busyBridge(page)) });
    await page.getByRole('button', { name: shopperMessages[language]['language.name'], exact: true }).click();
    await page.locator('[data-testid="camera-scan"] video').waitFor();
    const problems = await walkSizes(page, `${language}-camera`, 'attract');
    bridge.busyOnce('lookupScan');
    await scannerBurst(page, cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl').card);
    await page.getByTestId('problem').waitFor();
    problems.push(...(await walkSizes(page, `${language}-camera`, 'attract-busy')));
    expect(problems).toEqual([]);
    await page.close();
  });
});

/** Back to the screen before, by the screen's own Back button. */
async function back(page: Page, t: (key: 'common.back') => string): Promise<void> {
  await page.getByRole('button', { name: t('common.back'), exact: true }).click();
  await page.locator('[data-screen]').first().waitFor();
}
