import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locale } from '../../common/config-schema.std.ts';
import { shopperMessages } from '../../renderer/i18n/messages/shopper.std.ts';
import { launchChromium } from '../support/chromium.node.ts';
import { kioskctl, openKiosk, startKiosk, type KioskUnderTest } from '../support/kiosk-journey.node.ts';
import { LAYOUT_LANGUAGES } from '../support/layout-journey.node.ts';
import { walkSizes } from '../support/layout.node.ts';
import { enterSetupCode, openConsoleFirstRun, openConsoleWithPin, pressOn, tapCorner } from '../support/manager-console.node.ts';
import { setupCode } from '../../main/manager/setup-code.node.ts';

/**
 * #34 done-when: the console's screens in four languages, at the tall panel and the small laptop
 * (1080x1920 and 1366x768): every control on screen (or scrolled to), none covered, no label cut
 * off. A fresh kiosk's setup code pad and wizard steps too, and by keys alone. Screenshots in
 * test-results/layout/console-<language>/.
 */

const SIZES = [
  { width: 1080, height: 1920 },
  { width: 1366, height: 768 },
];
const TABS = ['settings', 'vouchers', 'rewards', 'reports', 'diagnostics'] as const;
const WALK_TIMEOUT_MS = 180_000;

let kiosk: KioskUnderTest;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  // Every tab there is: the account-wide one too.
  [kiosk, browser] = await Promise.all([startKiosk({ 'locale.enabled': LAYOUT_LANGUAGES, 'console.platformAdmin': true }), launchChromium()]);
  page = await openKiosk(browser, kiosk, 'portrait');
  await openConsoleFirstRun(page, kiosk.dataDir);
  await page.getByTestId('console-lock').tap();
  await page.getByTestId('attract-screen').waitFor();
}, WALK_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  await kiosk?.host.stop();
});

describe('the manager console in every language, at 1080x1920 and 1366x768', () => {
  it.each(LAYOUT_LANGUAGES)('in %s', async (language: Locale) => {
    const busy = shopperMessages[language]['common.busy'];
    expect(await kioskctl(kiosk.dataDir, 'config', 'set', 'locale.default', JSON.stringify(language))).toMatchObject({ code: 0 });
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(language);
    await openConsoleWithPin(page);
    const problems: string[] = [];
    for (const tab of TABS) {
      await page.getByTestId(`tab-${tab}`).tap();
      await expect.poll(() => page.getByTestId(`tab-${tab}`).getAttribute('aria-selected')).toBe('true');
      // Each tab's content has loaded (the platform's lists, the diagnostics) before it is looked at.
      await expect.poll(() => page.getByRole('tabpanel').getByText(busy, { exact: true }).count()).toBe(0);
      problems.push(...(await walkSizes(page, `console-${language}`, tab, { sizes: SIZES, scrolling: true })));
    }
    await page.getByTestId('console-lock').tap();
    await page.getByTestId('attract-screen').waitFor();
    expect(problems).toEqual([]);
  }, WALK_TIMEOUT_MS);
});

describe('the manager console by keys alone', () => {
  it('arrows along every tab, and Tab reaches each tab\'s first control with a focus that shows', async () => {
    expect(await kioskctl(kiosk.dataDir, 'config', 'set', 'locale.default', '"en"')).toMatchObject({ code: 0 });
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en');
    await openConsoleWithPin(page);
    await page.getByTestId('tab-settings').focus();
    const seen: string[] = [];
    for (const tab of TABS) {
      if (tab !== 'settings') await page.keyboard.press('ArrowRight');
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(`tab-${tab}`);
      await expect.poll(() => page.getByRole('tabpanel').getByText(shopperMessages.en['common.busy'], { exact: true }).count()).toBe(0);
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        const style = element ? getComputedStyle(element) : null;
        return {
          inPanel: !!element?.closest('[role="tabpanel"]'),
          shows: !!style && (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 || style.boxShadow !== 'none'),
        };
      });
      if (focused.inPanel && focused.shows) seen.push(tab);
      await page.getByTestId(`tab-${tab}`).focus();
    }
    expect(seen).toEqual([...TABS]);
    await page.getByTestId('console-lock').tap();
  }, WALK_TIMEOUT_MS);
});


describe('a fresh kiosk: the setup code pad and the wizard', () => {
  let fresh: KioskUnderTest;
  let wizardPage: Page;

  beforeAll(async () => {
    fresh = await startKiosk({ 'locale.enabled': LAYOUT_LANGUAGES });
    wizardPage = await openKiosk(browser, fresh, 'portrait');
  }, WALK_TIMEOUT_MS);
  afterAll(async () => {
    await fresh?.host.stop();
  });

  it.each(LAYOUT_LANGUAGES)('in %s, at 1080x1920 and 1366x768, every step', async (language: Locale) => {
    const page = wizardPage;
    expect(await kioskctl(fresh.dataDir, 'config', 'set', 'locale.default', JSON.stringify(language))).toMatchObject({ code: 0 });
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(language);
    const walk = (screen: string) => walkSizes(page, `console-${language}`, screen, { sizes: SIZES, scrolling: true });
    const problems: string[] = [];
    await tapCorner(page);
    await page.getByTestId('setup-code-input').waitFor();
    problems.push(...(await walk('setup-code')));
    await enterSetupCode(page, fresh.dataDir);
    problems.push(...(await walk('wizard-mode')));
    await page.getByTestId('wizard-connect').tap();
    await page.getByTestId('connect-form').waitFor();
    problems.push(...(await walk('wizard-connect')));
    await page.getByTestId('wizard-cancel').tap();
    await page.getByTestId('attract-screen').waitFor();
    await tapCorner(page);
    await enterSetupCode(page, fresh.dataDir);
    await page.getByTestId('wizard-demo').tap();
    await page.getByTestId('pin-setter').waitFor();
    problems.push(...(await walk('wizard-pin')));
    await page.getByTestId('wizard-cancel').tap();
    await page.getByTestId('attract-screen').waitFor();
    expect(problems).toEqual([]);
  }, WALK_TIMEOUT_MS);

  it('by keys alone: the setup code, each step\'s choices, Back and Cancel, each focus showing', async () => {
    const page = wizardPage;
    expect(await kioskctl(fresh.dataDir, 'config', 'set', 'locale.default', '"en"')).toMatchObject({ code: 0 });
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en');
    const step = () => page.getByTestId('console-wizard').getAttribute('data-step');
    await tapCorner(page);
    // The setup code on a keyboard (the pad's field has the focus), then Enter.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('setup-code-input');
    await page.keyboard.type(setupCode(fresh.dataDir));
    await page.keyboard.press('Enter');
    await page.getByTestId('console-wizard').waitFor();

    await pressOn(page, page.getByTestId('wizard-connect'));
    await page.getByTestId('connect-form').waitFor();
    await pressOn(page, page.getByTestId('connect-form').getByRole('button', { name: 'Back', exact: true }));
    await expect.poll(step).toBe('choose');
    await pressOn(page, page.getByTestId('wizard-demo'));
    await page.getByTestId('pin-setter').waitFor();
    await pressOn(page, page.getByTestId('wizard-back'));
    await expect.poll(step).toBe('choose');
    await pressOn(page, page.getByTestId('wizard-cancel'));
    await page.getByTestId('attract-screen').waitFor();
    await expect(page.evaluate(() => window.kiosk.managerStatus())).resolves.toMatchObject({ ok: true, value: { pinSet: false } });
  }, WALK_TIMEOUT_MS);
});
