import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium.node.ts';
import { openKiosk, screenshot, startKiosk, type KioskUnderTest } from '../support/kiosk-journey.node.ts';
import { walkSizes } from '../support/layout.node.ts';

/**
 * #35 §4: a kiosk whose provisioning file is invalid never serves shoppers in demo mode: in place
 * of the attract screen, "setup needed" with the problems for staff, at every kiosk size.
 */
describe('a kiosk whose provisioning file is invalid', () => {
  let browser: Browser;
  let kiosk: KioskUnderTest;

  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'setup-needed-'));
    const provisioningFile = path.join(dir, 'config.json');
    fs.writeFileSync(provisioningFile, JSON.stringify({ schedule: { nightlyRestart: '4:30' }, idle: { timeoutSecs: 90 } }));
    [browser, kiosk] = await Promise.all([launchChromium(), startKiosk({}, path.join(dir, 'data'), { KIOSK_PROVISIONING_FILE: provisioningFile })]);
  });

  afterAll(async () => {
    await kiosk?.host.stop();
    await browser?.close();
  });

  it('shows "setup needed" with every problem for staff, and no shopper screen, whatever key is pressed', async () => {
    const page = await openKiosk(browser, kiosk, 'portrait', { firstScreen: 'setup-needed' });
    const setup = page.getByTestId('setup-needed');
    await setup.waitFor();
    await expect(setup.getByRole('heading').textContent()).resolves.toBe('This kiosk is not set up yet. Please ask a member of staff.');
    await expect(page.getByTestId('setup-needed-reason').textContent()).resolves.toMatch(/^idle\.timeoutSecs: unknown setting; schedule\.nightlyRestart: /);
    // A shopper's keypad, and a card typed as a scanner would: nothing opens a visit.
    for (const key of ['Enter', 'ArrowDown', 'Escape', '4', '2', 'Enter']) await page.keyboard.press(key);
    expect(await page.getByTestId('attract-screen').count()).toBe(0);
    await expect(setup.isVisible()).resolves.toBe(true);
    await screenshot(page, 'setup-needed');

    const problems = await walkSizes(page, 'setup-needed', 'setup-needed', { axe: true });
    expect(problems).toEqual([]);
  });
});
