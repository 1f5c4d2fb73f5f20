import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEEKDAYS } from '../../common/local-time.std.ts';
import { cameraTrackStates, recordCameraStreams } from '../camera/camera-browser.node.ts';
import { KIOSK_VIEWPORTS, launchChromium } from '../support/chromium.node.ts';
import { cardOf, recordBridgeCalls, scannerBurst, screenshot, startKiosk, kioskEvents, type KioskUnderTest } from '../support/kiosk-journey.node.ts';

/** The shortest idle time the config allows: the kiosk sleeps after the attract screen sat idle this long. */
const IDLE_SECONDS = 10;
/** Falling asleep: the idle time, the schedule's next look (5 s) and some slack for a loaded machine. */
const SLEEP_WITHIN_MS = (IDLE_SECONDS + 10) * 1000;

const hhmm = (date: Date) => `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;

/**
 * Quiet hours from an hour ago to an hour from now, every day: whichever day "now" is, and even
 * when the range runs past midnight (it then belongs to the day it started), now is quiet.
 */
function quietHoursAroundNow(): Record<string, string> {
  const range = `${hhmm(new Date(Date.now() - 3_600_000))}-${hhmm(new Date(Date.now() + 3_600_000))}`;
  return Object.fromEntries(WEEKDAYS.map((day) => [`schedule.quietHours.${day}`, range]));
}

/** The text of every button a click reached (recorded by the context's init script). */
const pressedButtons = (page: Page) => page.evaluate(() => (window as unknown as { pressed: string[] }).pressed);

/**
 * Quiet hours in the real renderer through the browser host: the idle kiosk goes black and lets
 * go of the camera; the touch or scan that wakes it presses nothing and looks nothing up.
 */
describe('quiet hours: the sleeping kiosk', () => {
  let kiosk: KioskUnderTest;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    [kiosk, browser] = await Promise.all([
      startKiosk({
        'session.scanner_type': 'camera',
        'session.enable_email_identification': true,
        'session.enable_registration': true,
        'idle.timeoutSeconds': IDLE_SECONDS,
        ...quietHoursAroundNow(),
      }),
      // Chromium's own fake camera: a moving test pattern, no code in it.
      launchChromium({ args: ['--use-fake-device-for-media-stream'] }),
    ]);
    // With motion: this test checks the drift that keeps the panel from burning in.
    context = await browser.newContext({ viewport: KIOSK_VIEWPORTS.portrait, hasTouch: true, reducedMotion: 'no-preference' });
    await context.grantPermissions(['camera'], { origin: kiosk.host.origin });
    await context.addInitScript(() => {
      // Every click that reached the page's controls (the bubble phase at the document): what a tap pressed.
      const pressed: string[] = [];
      (window as unknown as { pressed: string[] }).pressed = pressed;
      document.addEventListener('click', (event) => pressed.push((event.target as HTMLElement).closest('button')?.textContent?.trim() ?? 'no button'));
    });
    await recordCameraStreams(context);
  });
  afterAll(async () => {
    await browser?.close();
    await kiosk?.host.stop();
  });

  it('goes black when idle, and the tap that wakes it presses nothing; a scan that wakes it looks nothing up', async () => {
    const page = await context.newPage();
    const calls = recordBridgeCalls(page);
    await page.goto(kiosk.host.url);
    await page.getByTestId('attract-screen').waitFor();
    await expect.poll(() => cameraTrackStates(page)).toEqual(['live']);
    // The attract screen's own actions (e-mail, joining): a tap on one leaves the attract screen.
    const action = page.getByTestId('attract-screen').locator('.actions button').first();
    const button = (await action.boundingBox())!;

    // Idle on the attract screen in quiet hours: black, nothing lit, the camera's light off.
    const sleepScreen = page.getByTestId('sleep-screen');
    await sleepScreen.waitFor({ timeout: SLEEP_WITHIN_MS });
    await expect(page.getByTestId('attract-screen').count()).resolves.toBe(0);
    await expect(page.evaluate(() => document.body.innerText.trim())).resolves.toBe('');
    await expect(sleepScreen.evaluate((element) => getComputedStyle(element).backgroundColor)).resolves.toBe('rgb(0, 0, 0)');
    await expect.poll(() => cameraTrackStates(page)).toEqual(['ended']);
    expect(kioskEvents(kiosk.dataDir, 'kiosk.sleeps')).not.toHaveLength(0);

    // A tap where that button was: it wakes the kiosk, and the button is never pressed.
    await page.touchscreen.tap(button.x + button.width / 2, button.y + button.height / 2);
    await page.getByTestId('attract-screen').waitFor();
    await expect.poll(() => calls.includes('wake')).toBe(true);
    await page.waitForTimeout(1_000);
    await expect(pressedButtons(page)).resolves.toEqual([]);
    await expect(page.getByTestId('attract-screen').isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('attract-screen').locator('.actions button').first().boundingBox()).resolves.toEqual(button);
    await expect.poll(() => cameraTrackStates(page)).toEqual(['ended', 'live']);
    await screenshot(page, 'quiet-hours-after-wake');
    // Awake, the attract screen still drifts slowly, so nothing burns into the panel.
    const drift = page.locator('.attract .drift').evaluate((element) => {
      const { animationDuration, animationIterationCount } = getComputedStyle(element);
      return { animationDuration, animationIterationCount };
    });
    await expect(drift).resolves.toEqual({ animationDuration: '120s', animationIterationCount: 'infinite' });

    // Left alone again it sleeps again; a reload during quiet hours comes back asleep.
    await sleepScreen.waitFor({ timeout: SLEEP_WITHIN_MS });
    await page.reload();
    await sleepScreen.waitFor({ timeout: 5_000 });

    // A keyboard-wedge scan of a member's card wakes it, and is no lookup.
    const { card } = cardOf(kiosk.manifest, 'sanne.devries@example.nl');
    const wakes = calls.filter((call) => call === 'wake').length;
    await scannerBurst(page, card);
    await page.getByTestId('attract-screen').waitFor();
    await expect.poll(() => calls.filter((call) => call === 'wake').length).toBe(wakes + 1);
    await page.waitForTimeout(1_000);
    await expect(page.getByTestId('home-screen').count()).resolves.toBe(0);
    expect(calls).not.toContain('lookupScan');

    // Awake, the kiosk is itself again: the same scan brings the shopper home.
    await scannerBurst(page, card);
    await page.getByTestId('home-screen').waitFor();
    expect(calls).toContain('lookupScan');
    await page.close();
  });
});
