import fs from 'node:fs';
import { setupCode } from '../../main/manager/setup-code.node.ts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KIOSK_VIEWPORTS, launchChromium } from '../support/chromium.node.ts';
import { openConsoleFirstRun, openConsoleWithPin, PIN, shootBothSizes, tapCorner } from '../support/manager-console.node.ts';
import { cardOf, expectAccessible, kioskEvents, openKiosk, startKiosk, wedgeScan, type KioskUnderTest } from '../support/kiosk-journey.node.ts';
import { verifyPin } from '../../main/manager/pin-hash.node.ts';
import { killProcessesMentioning } from '../support/processes.node.ts';
import { dataFiles } from '../../main/paths/data-files.node.ts';

const NEW_PIN = '975310';

/**
 * Getting into the store manager's console on a fresh demo kiosk: the corner gesture (five taps,
 * or a three-second hold), the first-run wizard, the PIN pad and its lockout, which outlives a
 * restart; and the console locking itself after two minutes untouched. Main's own answers
 * (managerStatus) and its files are checked, not only the screen.
 */

async function managerStatus(page: Page) {
  const status = await page.evaluate(() => window.kiosk.managerStatus());
  if (!status.ok) throw new Error(status.error.message);
  return status.value;
}

/** Digits on the on-screen keypad (its keys are named by their digit), then Done. */
async function typeOnKeypad(page: Page, digits: string) {
  const keypad = page.getByTestId('on-screen-keyboard');
  await expect(keypad.getAttribute('data-layout')).resolves.toBe('numeric');
  for (const digit of digits) await keypad.getByRole('button', { name: digit, exact: true }).tap();
  await keypad.getByRole('button', { name: 'Done', exact: true }).tap();
}

describe('manager console: getting in', () => {
  let kiosk: KioskUnderTest;
  let browser: Browser;

  beforeAll(async () => {
    [kiosk, browser] = await Promise.all([startKiosk({ 'session.scanner_type': 'hand_scanner' }), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await kiosk?.host.stop();
  });

  it('first run: five taps in the corner end the visit and open the wizard; Demo, a PIN, the console', async () => {
    const page = await openKiosk(browser, kiosk);
    await expect(managerStatus(page)).resolves.toMatchObject({ pinSet: false });
    // The corner is no control: nothing a shopper can reach, nothing assistive technology announces.
    const corner = page.getByTestId('console-corner');
    await expect(corner.evaluate((element) => [element.getAttribute('aria-hidden'), getComputedStyle(element).pointerEvents])).resolves.toEqual(['true', 'none']);
    await expect(corner.boundingBox()).resolves.toEqual({ x: 0, y: 0, width: 120, height: 120 });

    // A shopper is in the middle of a visit; four taps do nothing.
    const sanne = cardOf(kiosk.manifest, 'sanne.devries@example.nl');
    await wedgeScan(page, sanne.card);
    await page.getByTestId('home-screen').waitFor();
    // From here the page's clock, which the corner reads when touched, so the taps' three seconds pass in a moment.
    await page.clock.install();
    // Opening the console ends the visit in the same task as the tap that opens it: the shopper still
    // home once the taps are over is the proof that they opened nothing.
    await tapCorner(page, 4);
    await expect(page.getByTestId('home-screen').count()).resolves.toBe(1);
    await page.clock.fastForward(3_000);
    // The fifth tap comes too late for the first four: a fresh count, still shut.
    await tapCorner(page, 1);
    await expect(page.getByTestId('home-screen').count()).resolves.toBe(1);

    await tapCorner(page);
    // A fresh kiosk asks for its setup code first (#34 §2): what IT has, never the shopper at the screen.
    await page.getByTestId('setup-code-input').waitFor();
    await expect(page.getByTestId('home-screen').count()).resolves.toBe(0);
    await expect(page.evaluate(() => window.kiosk.getConsoleSettings())).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await shootBothSizes(page, 'console-setup-code');
    const code = setupCode(kiosk.dataDir);
    await typeOnKeypad(page, code === '00000000' ? '11111111' : '00000000');
    await page.getByTestId('pin-problem').filter({ hasText: 'Wrong setup code. 4 more tries' }).waitFor();
    await typeOnKeypad(page, code);
    await page.getByTestId('console-wizard').waitFor();
    await expectAccessible(page, 'console wizard');
    await shootBothSizes(page, 'console-wizard');

    await page.getByTestId('wizard-demo').tap();
    await page.getByTestId('pin-setter').waitFor();
    await expect(page.getByTestId('console-wizard').getAttribute('data-step')).resolves.toBe('pin');
    // Two PINs that differ are refused before anything is sent.
    await page.getByLabel('New PIN (4 to 8 digits)').tap();
    await typeOnKeypad(page, PIN);
    await page.getByLabel('Repeat the PIN').tap();
    await typeOnKeypad(page, '2581');
    await page.getByTestId('pin-set').tap();
    await page.getByText('The two PINs are not the same.').waitFor();
    await expect(managerStatus(page)).resolves.toMatchObject({ pinSet: false });
    await shootBothSizes(page, 'console-wizard-pin');

    await page.getByLabel('Repeat the PIN').fill('');
    await page.getByLabel('Repeat the PIN').tap();
    // Done on the keypad (typeOnKeypad ends with it) sets the PIN, as the button does.
    await typeOnKeypad(page, PIN);
    await page.getByTestId('console-shell').waitFor();
    await expect(managerStatus(page)).resolves.toMatchObject({ pinSet: true, unlocked: true });
    // Demo stays demo; the PIN is stored only as a salted hash.
    const config = JSON.parse(fs.readFileSync(dataFiles(kiosk.dataDir).config, 'utf8'));
    expect(config.api.baseUrl).toBeNull();
    expect(config.manager.pinHash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(config)).not.toContain(PIN);

    await page.getByTestId('console-lock').tap();
    await page.getByTestId('attract-screen').waitFor();
    await expect(managerStatus(page)).resolves.toMatchObject({ pinSet: true, unlocked: false });
    await page.close();
  });

  it('a three-second hold opens the PIN pad; the right PIN opens the console', async () => {
    // The page's clock, so the hold's three seconds pass in a moment.
    const page = await openKiosk(browser, kiosk, 'portrait', { fakeClock: true });
    await page.mouse.move(50, 50);
    await page.mouse.down();
    await page.clock.runFor(2_000);
    await expect(page.getByTestId('console-pin').count()).resolves.toBe(0);
    await page.clock.runFor(1_000);
    await page.getByTestId('console-pin').waitFor();
    await page.mouse.up();
    await expectAccessible(page, 'PIN pad');
    await shootBothSizes(page, 'console-pin');

    await typeOnKeypad(page, PIN);
    await page.getByTestId('console-shell').waitFor();
    await expect(managerStatus(page)).resolves.toMatchObject({ unlocked: true, attemptsLeft: 5 });
    await page.getByTestId('console-lock').tap();
    await page.getByTestId('attract-screen').waitFor();
    await page.close();
  });

  it('changes the PIN in the settings: the new one opens the console, the old one is wrong', async () => {
    const page = await openKiosk(browser, kiosk);
    await openConsoleWithPin(page);
    const section = page.getByTestId('pin-section');
    await section.scrollIntoViewIfNeeded();
    await section.getByLabel('New PIN (4 to 8 digits)').fill(NEW_PIN);
    await section.getByLabel('Repeat the PIN').fill(NEW_PIN);
    await section.getByTestId('pin-set').tap();
    await section.getByText('The PIN has been changed.').waitFor();
    const { pinHash } = JSON.parse(fs.readFileSync(dataFiles(kiosk.dataDir).config, 'utf8')).manager;
    await expect(verifyPin(NEW_PIN, pinHash)).resolves.toBe(true);
    await expect(verifyPin(PIN, pinHash)).resolves.toBe(false);
    await page.getByTestId('console-lock').tap();
    await page.getByTestId('attract-screen').waitFor();

    await tapCorner(page);
    await page.getByTestId('console-pin').waitFor();
    await typeOnKeypad(page, PIN);
    await page.getByTestId('pin-problem').filter({ hasText: 'Wrong PIN. 4 more tries' }).waitFor();
    await expect(managerStatus(page)).resolves.toMatchObject({ unlocked: false, attemptsLeft: 4 });
    await typeOnKeypad(page, NEW_PIN);
    await page.getByTestId('console-shell').waitFor();
    await expect(managerStatus(page)).resolves.toMatchObject({ unlocked: true, attemptsLeft: 5 });

    // Back to the PIN the other tests use.
    await expect(page.evaluate((pin) => window.kiosk.setManagerPin({ pin }), PIN)).resolves.toMatchObject({ ok: true });
    await page.getByTestId('console-lock').tap();
    await page.getByTestId('attract-screen').waitFor();
    await page.close();
  });

  it('five wrong PINs lock the pad for five minutes, and a restart does not unlock it', async () => {
    let page = await openKiosk(browser, kiosk);
    await tapCorner(page);
    await page.getByTestId('console-pin').waitFor();
    for (let attempt = 1; attempt <= 4; attempt++) {
      await typeOnKeypad(page, '1111');
      const left = 5 - attempt;
      await page.getByTestId('pin-problem').filter({ hasText: `Wrong PIN. ${left} more ${left === 1 ? 'try' : 'tries'} before` }).waitFor();
    }
    await typeOnKeypad(page, '1111');
    const locked = page.getByTestId('pin-locked');
    await locked.waitFor();
    await expect(locked.textContent()).resolves.toMatch(/PIN pad is locked\.\s*Try again in [45]:\d\d\./);
    await expect(page.getByTestId('on-screen-keyboard').count()).resolves.toBe(0);
    const status = await managerStatus(page);
    expect(status.lockedUntil).toBeGreaterThan(Date.now() + 4 * 60_000);
    await shootBothSizes(page, 'console-pin-locked');
    // Even the right PIN is refused now, by main.
    await expect(page.evaluate((pin) => window.kiosk.unlockManager({ pin }), PIN)).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await page.getByRole('button', { name: 'Cancel' }).tap();
    await page.getByTestId('attract-screen').waitFor();
    await page.close();

    await kiosk.host.stop();
    kiosk = await startKiosk({}, kiosk.dataDir);
    page = await openKiosk(browser, kiosk);
    await expect(managerStatus(page)).resolves.toMatchObject({ pinSet: true, unlocked: false, lockedUntil: status.lockedUntil });
    await tapCorner(page);
    await expect(page.getByTestId('pin-locked').textContent()).resolves.toMatch(/Try again in [45]:\d\d\./);
    await page.close();
  });
});

describe('manager console: locks itself', () => {
  let kiosk: KioskUnderTest;
  let browser: Browser;

  beforeAll(async () => {
    [kiosk, browser] = await Promise.all([startKiosk(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await kiosk?.host.stop();
  });

  it('after two minutes without a touch: locked in main, back to the shopper screens', async () => {
    const page = await browser.newPage({ viewport: KIOSK_VIEWPORTS.portrait, hasTouch: true });
    // The page's clock, so two minutes pass in a moment; main keeps real time.
    await page.clock.install();
    await page.goto(kiosk.host.url);
    await page.getByTestId('attract-screen').waitFor();
    await openConsoleFirstRun(page, kiosk.dataDir);

    // A touch within the two minutes starts them over.
    await page.clock.fastForward('01:50');
    await page.getByTestId('tab-diagnostics').tap();
    await page.clock.fastForward('01:50');
    await expect(page.getByTestId('console-shell').count()).resolves.toBe(1);
    await expect(managerStatus(page)).resolves.toMatchObject({ unlocked: true });

    await page.clock.fastForward('02:01');
    await page.getByTestId('attract-screen').waitFor();
    await expect(managerStatus(page)).resolves.toMatchObject({ unlocked: false });
    await page.close();
  });
});

describe('manager console: restart and quit', () => {
  let browser: Browser;
  let kiosk: KioskUnderTest | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await kiosk?.host.stop();
    // A relaunched host is not our child: whatever still runs on this data folder goes too.
    if (kiosk) killProcessesMentioning(kiosk.dataDir);
  });

  /** The console's Diagnostics tab, and one of its confirmed actions. */
  async function confirmOnDiagnostics(page: Page, action: string) {
    await page.getByTestId('tab-diagnostics').tap();
    // The diagnostics load below the "busy" line and push the actions down: a tap aimed before
    // they arrive lands on whatever moved under it (seen in CI under load: the confirm never came).
    await page.getByTestId('diagnostics-log').waitFor();
    await page.getByRole('button', { name: action, exact: true }).tap();
    await page.getByTestId('diagnostics-confirm').tap();
  }

  it('restarts the kiosk as a fresh process, and quits it for good', async () => {
    kiosk = await startKiosk();
    const page = await openKiosk(browser, kiosk);
    await openConsoleFirstRun(page, kiosk.dataDir);

    // The successor takes over the port and token, so the open page finds it and loads afresh
    // by itself: the test waits for that load rather than navigating across it.
    const reloaded = page.waitForEvent('load', { timeout: 30_000 });
    await confirmOnDiagnostics(page, 'Restart kiosk');
    await expect(kiosk.host.exitCode).resolves.toBe(0);
    await expect.poll(() => kiosk!.host.urls().length, { timeout: 30_000 }).toBe(2);
    expect(kiosk.host.urls()[1]).toBe(kiosk.host.urls()[0]);
    await reloaded;

    // The new process runs on the same data: the PIN is still set.
    await page.getByTestId('attract-screen').waitFor();
    await openConsoleWithPin(page);
    await confirmOnDiagnostics(page, 'Quit kiosk');
    await kiosk.host.outputClosed;
    // Each process closed its services on the way out.
    expect(kioskEvents(kiosk.dataDir, 'services.stopped')).toHaveLength(2);
    await page.close();
  });
});
