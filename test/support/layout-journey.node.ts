import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Locale } from '../../common/config-schema.std.ts';
import { shopperMessages } from '../../renderer/i18n/messages/shopper.std.ts';
import { busyBridge } from './busy-bridge.node.ts';
import { cardOf, kioskSuite, openKiosk, scannerBurst, stopPageClock, type KioskUnderTest } from './kiosk-journey.node.ts';
import { walkSizes, type WalkOptions } from './layout.node.ts';

export const LAYOUT_LANGUAGES: readonly Locale[] = ['en', 'nl', 'de', 'fr'];

/** A kiosk that shows every shopper screen there is, in every language. */
export const LAYOUT_KIOSK_SETTINGS = {
  'session.scanner_type': 'hand_scanner',
  'session.enable_on_screen_keyboard': true,
  'session.enable_email_identification': true,
  'session.enable_registration': true,
  'locale.enabled': LAYOUT_LANGUAGES,
};

/** Fills the e-mail screen the way the longest demo address would. */
const LONG_EMAIL = 'olivia.smith@example.com';

export interface ShopperScreensWalk {
  language: Locale;
  /** The shopper's display choices (test ids of the attract screen's toggles: large-text, high-contrast). */
  display?: readonly string[];
  /** Windows high contrast, as Chromium emulates it. */
  forcedColors?: boolean;
  /** Where the screenshots go: test-results/layout/<set>. */
  set: string;
  options?: WalkOptions;
}

/**
 * Every shopper screen of a visit, each walked at every size of `options.sizes`, in `language`
 * with the shopper's `display` choices: the problems found (empty when every screen fits). The
 * page's time stands still while a screen is walked: no idle time or countdown ends one half-way.
 */
export async function walkShopperScreens(browser: Browser, kiosk: KioskUnderTest, { language, display = [], forcedColors = false, set, options = {} }: ShopperScreensWalk): Promise<string[]> {
  const t = (key: keyof (typeof shopperMessages)['en']) => shopperMessages[language][key];
  let bridge!: Awaited<ReturnType<typeof busyBridge>>;
  const page = await openKiosk(browser, kiosk, 'portrait', { fakeClock: true, beforeLoad: async (page) => (bridge = await busyBridge(page)) });
  await stopPageClock(page);
  if (forcedColors) await page.emulateMedia({ forcedColors: 'active' });
  const problems: string[] = [];
  const walk = async (screen: string) => problems.push(...(await walkSizes(page, set, screen, options)));
  const button = (name: string) => page.getByRole('button', { name, exact: true });
  // The shopper's own language is named "Language: English" (one choice by keys, #33 §12): its name contains the language's.
  const languageButton = () => page.getByRole('button', { name: t('language.name') });
  const shows = (testid: string) => page.getByTestId(testid).waitFor();
  const back = async () => {
    await button(t('common.back')).click();
    await page.locator('[data-screen]').first().waitFor();
  };
  const choose = async () => {
    await languageButton().click();
    for (const toggle of display) await page.getByTestId(toggle).click();
  };
  const sanne = cardOf(kiosk.manifest, 'sanne.devries@example.nl').card;

  await choose();
  await walk('attract');
  // A scan the platform is too busy to look up is told on the attract screen itself.
  bridge.busyOnce('lookupScan');
  await scannerBurst(page, sanne);
  await page.getByTestId('problem').waitFor();
  await walk('attract-busy');

  await page.getByTestId('type-code').click();
  await shows('type-code-screen');
  await walk('type-code');
  await back();

  await page.getByTestId('try-sample').click();
  await shows('samples-screen');
  await walk('samples');
  await back();

  await button(t('attract.forgot_card')).click();
  await shows('email-screen');
  await page.getByRole('textbox').fill(LONG_EMAIL);
  await walk('email');
  await back();

  await button(t('attract.join')).click();
  await shows('register-screen');
  await walk('register');
  await button(t('register.terms.read')).click();
  await shows('terms-dialog');
  await walk('register-terms');
  await button(t('common.close')).click();
  await back();

  await scannerBurst(page, kiosk.manifest.unlinked_identifiers[0]!);
  await shows('notice-screen');
  await walk('notice-unlinked');
  await back();

  await scannerBurst(page, kiosk.manifest.inactive_identifiers![0]!);
  await shows('notice-screen');
  await walk('notice-blocked');
  await back();

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

  // A visit a reload cut short is told so, in the store's language, and starts again: the shopper
  // chooses again (the display toggles are the attract screen's).
  await page.clock.resume();
  await page.reload();
  await shows('interrupted-screen');
  await page.locator('#boot-cover').waitFor({ state: 'detached' });
  await stopPageClock(page);
  await languageButton().click();
  await walk('interrupted');
  await button(t('common.start_over')).click();
  await shows('attract-screen');
  await choose();

  await scannerBurst(page, sanne);
  await page.getByTestId('voucher-list').waitFor();
  await button(t('session.start.regular')).click();
  await shows('portal-screen');
  await walk('portal');

  await page.close();
  return problems;
}


/**
 * A walk is 16 screens, each drawn, photographed and measured at every size: about 18 s on a quiet
 * machine, where Chromium's JPEG of a 1080x1920 frame alone takes a quarter second. Among the
 * three files the suite runs at once on two cores it took 71 s on average and once more than the
 * e2e tier's 90 s, so a walk is given more; a screen that never shows still fails at Playwright's 30 s wait.
 */
const WALK_TIMEOUT_MS = 240_000;

/**
 * A describe block of its own kiosk (LAYOUT_KIOSK_SETTINGS and `settings`) with a test per
 * language of `languages` that walks every shopper screen the way `walk` says for it, and expects
 * no problem.
 */
export function walkEveryLanguage(
  title: string,
  walk: (language: Locale) => Omit<ShopperScreensWalk, 'language'>,
  { settings = {}, languages = LAYOUT_LANGUAGES }: { settings?: Record<string, unknown>; languages?: readonly Locale[] } = {},
): void {
  describe(title, () => {
    const suite = kioskSuite({ ...LAYOUT_KIOSK_SETTINGS, ...settings });
    it.each(languages)('in %s', async (language) => {
      expect(await walkShopperScreens(suite.browser, suite.kiosk, { language, ...walk(language) })).toEqual([]);
    }, WALK_TIMEOUT_MS);
  });
}

/**
 * The short words and the long ones: what depends on colour only (axe, forced colours' outlines)
 * is walked in these, while the layout, which the words change, is walked in every language.
 */
export const SHORT_AND_LONG: readonly Locale[] = ['en', 'de'];
export const axeIn = (language: Locale) => SHORT_AND_LONG.includes(language);
