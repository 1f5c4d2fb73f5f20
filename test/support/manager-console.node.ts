import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { KIOSK_VIEWPORTS } from './chromium.node.ts';
import { screenshot } from './kiosk-journey.node.ts';
import { setupCode } from '../../main/manager/setup-code.node.ts';

/** The manager PIN the console E2E tests choose. */
export const PIN = '2580';

/** Quick taps (five open the console) on the touch screen, inside the top-left corner. */
export async function tapCorner(page: Page, taps = 5) {
  for (let tap = 0; tap < taps; tap++) await page.touchscreen.tap(30 + tap * 4, 40);
}

/** The wizard's PIN step, typed on a physical keyboard: the PIN twice, then Set. */
export async function setPinInWizard(page: Page) {
  const pins = page.getByTestId('pin-setter').locator('input');
  await pins.nth(0).fill(PIN);
  await pins.nth(1).fill(PIN);
  await page.getByTestId('pin-set').tap();
  await page.getByTestId('console-shell').waitFor();
}

/** A fresh kiosk's setup code typed on its pad, as IT gives it (read from the kiosk's data folder): the wizard opens. */
export async function enterSetupCode(page: Page, dataDir: string) {
  const input = page.getByTestId('setup-code-input');
  await input.fill(setupCode(dataDir));
  await input.press('Enter');
  await page.getByTestId('console-wizard').waitFor();
}

/** A fresh kiosk's console: the corner, the setup code, the wizard's Demo choice, and the PIN. */
export async function openConsoleFirstRun(page: Page, dataDir: string) {
  await tapCorner(page);
  await enterSetupCode(page, dataDir);
  await page.getByTestId('wizard-demo').tap();
  await setPinInWizard(page);
}

/** The console of a kiosk whose PIN is set: the corner, then the PIN. */
export async function openConsoleWithPin(page: Page) {
  await tapCorner(page);
  await page.getByTestId('console-pin').waitFor();
  await page.getByTestId('pin-input').fill(PIN);
  await page.getByTestId('pin-input').press('Enter');
  await page.getByTestId('console-shell').waitFor();
}

/** Screenshots in both panel shapes, ending in portrait; `atEach` runs first in each (to scroll, to check). */
export async function shootBothSizes(page: Page, name: string, atEach: () => Promise<void> = async () => {}) {
  for (const viewport of ['landscape', 'portrait'] as const) {
    await page.setViewportSize(KIOSK_VIEWPORTS[viewport]);
    await atEach();
    await screenshot(page, name);
  }
}

/** Tab (forwards) until `target` has the focus, which must show (an outline or a ring), then Enter. */
export async function pressOn(page: Page, target: Locator, limit = 40) {
  for (let presses = 0; !(await target.evaluate((element) => element === document.activeElement)); presses++) {
    if (presses === limit) throw new Error(`${limit} presses of Tab never reached ${target}`);
    await page.keyboard.press('Tab');
  }
  const shows = await target.evaluate((element) => {
    const style = getComputedStyle(element);
    return (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2) || style.boxShadow !== 'none';
  });
  expect(shows, `the focus on ${target} shows`).toBe(true);
  await page.keyboard.press('Enter');
}
