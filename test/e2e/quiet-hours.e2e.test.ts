import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEEKDAYS } from '../../common/local-time.std.ts';
import { INPUT_EVENTS, WAKE_QUIET_MS } from '../../renderer/sleep/wake-swallow.std.ts';
import { ConfigStore } from '../../main/config/config-store.node.ts';
import { silentLogger } from '../../main/logging/logger.std.ts';
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

interface InputRecord {
  /** Every input event, at the window before the wake guard (the context's init script listens first). */
  met: Event[];
  /** The input events that got past the guard: what the page's own listeners (the wedge scanner's) could see. */
  passed: string[];
}

/**
 * Listens at the window after the wake guard, which the page attached when it started: whatever
 * the guard swallows never reaches this listener (nor the wedge scanner's, also attached after it).
 */
const listenAfterGuard = (page: Page) =>
  page.evaluate((types) => {
    const record = (window as unknown as { input: InputRecord }).input;
    for (const type of types) window.addEventListener(type, (event) => record.passed.push(event.type), { capture: true });
  }, [...INPUT_EVENTS]);

/** Each input event the guard met from the `from`th on: its type, key, and whether it was cancelled. */
const metSince = (page: Page, from: number) =>
  page.evaluate(
    (from) =>
      (window as unknown as { input: InputRecord }).input.met
        .slice(from)
        .map((event) => ({ type: event.type, key: (event as KeyboardEvent).key, cancelled: event.defaultPrevented })),
    from,
  );
const inputCounts = (page: Page) =>
  page.evaluate(() => {
    const { met, passed } = (window as unknown as { input: InputRecord }).input;
    return { met: met.length, passed: passed.length };
  });

/**
 * Until the waking gesture is over by the guard's own clock, the stamps of the keys the test sends
 * (a stamp sent over CDP is the page's event time, not the page's performance.now()): the next
 * burst, whose first key is stamped a few dozen ms before it is sent, comes the guard's quiet time
 * after the waking burst's last key.
 */
const gestureOverAfter = (lastKeyAt: number) => expect.poll(() => Date.now() - lastKeyAt > WAKE_QUIET_MS + 100, { interval: 50 }).toBe(true);

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
      }),
      // Chromium's own fake camera: a moving test pattern, no code in it.
      launchChromium({ args: ['--use-fake-device-for-media-stream'] }),
    ]);
    // With motion: this test checks the drift that keeps the panel from burning in.
    context = await browser.newContext({ viewport: KIOSK_VIEWPORTS.portrait, hasTouch: true, reducedMotion: 'no-preference' });
    await context.grantPermissions(['camera'], { origin: kiosk.host.origin });
    await context.addInitScript((types) => {
      // Every click that reached the page's controls (the bubble phase at the document): what a tap pressed.
      const pressed: string[] = [];
      (window as unknown as { pressed: string[] }).pressed = pressed;
      document.addEventListener('click', (event) => pressed.push((event.target as HTMLElement).closest('button')?.textContent?.trim() ?? 'no button'));
      // Every input event, before the page's own listeners: the first listener at the window's capture phase.
      const input: InputRecord = { met: [], passed: [] };
      (window as unknown as { input: InputRecord }).input = input;
      for (const type of types) window.addEventListener(type, (event) => input.met.push(event), { capture: true });
    }, [...INPUT_EVENTS]);
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
    await listenAfterGuard(page);
    // The attract screen's own actions (e-mail, joining): a tap on one leaves the attract screen.
    // Where one stands, taken while no quiet hours are set: the kiosk cannot fall asleep first.
    await page.evaluate(() => Promise.all(document.getAnimations().filter((animation) => animation.effect?.getTiming().iterations !== Infinity).map((animation) => animation.finished)));
    const action = page.getByTestId('attract-screen').locator('.actions button').first();
    const button = (await action.boundingBox())!;
    await expect.poll(() => cameraTrackStates(page)).toEqual(['live']);
    // Now quiet hours, as an administrator sets them in the file: the running kiosk takes them up.
    const reloads = kioskEvents(kiosk.dataDir, 'config.reloaded').length;
    new ConfigStore({ dataDir: kiosk.dataDir, logger: silentLogger }).setMany(quietHoursAroundNow());
    await expect.poll(() => kioskEvents(kiosk.dataDir, 'config.reloaded').length).toBeGreaterThan(reloads);

    // Idle on the attract screen in quiet hours: black, nothing lit, the camera's light off.
    const sleepScreen = page.getByTestId('sleep-screen');
    await sleepScreen.waitFor({ timeout: SLEEP_WITHIN_MS });
    await expect(page.getByTestId('attract-screen').count()).resolves.toBe(0);
    await expect(page.evaluate(() => document.body.innerText.trim())).resolves.toBe('');
    await expect(sleepScreen.evaluate((element) => getComputedStyle(element).backgroundColor)).resolves.toBe('rgb(0, 0, 0)');
    // Every stream it opened is let go (the new settings restarted the camera once: two by now).
    await expect.poll(async () => (await cameraTrackStates(page)).every((state) => state === 'ended')).toBe(true);
    const asleepStreams = (await cameraTrackStates(page)).length;
    expect(kioskEvents(kiosk.dataDir, 'kiosk.sleeps')).not.toHaveLength(0);

    // A tap where that button was: it wakes the kiosk, and the button is never pressed.
    const beforeTap = await inputCounts(page);
    await page.touchscreen.tap(button.x + button.width / 2, button.y + button.height / 2);
    await page.getByTestId('attract-screen').waitFor();
    await expect.poll(() => calls.includes('wake')).toBe(true);
    // The tap's last event (its click) met the guard: the guard cancelled the whole tap, and none of it got past.
    const tap = () => metSince(page, beforeTap.met);
    await expect.poll(async () => (await tap()).map((event) => event.type)).toContain('click');
    expect((await tap()).filter((event) => !event.cancelled)).toEqual([]);
    await expect(inputCounts(page)).resolves.toMatchObject({ passed: beforeTap.passed });
    await expect(pressedButtons(page)).resolves.toEqual([]);
    await expect(page.getByTestId('attract-screen').isVisible()).resolves.toBe(true);
    // Back in its place once the attract screen has come in.
    await expect.poll(() => page.getByTestId('attract-screen').locator('.actions button').first().boundingBox()).toEqual(button);
    // Awake: one new stream, live; the ones before stay let go.
    await expect.poll(() => cameraTrackStates(page)).toEqual([...Array<string>(asleepStreams).fill('ended'), 'live']);
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
    await listenAfterGuard(page);

    // A keyboard-wedge scan of a member's card wakes it, and is no lookup.
    const { card } = cardOf(kiosk.manifest, 'sanne.devries@example.nl');
    const wakes = calls.filter((call) => call === 'wake').length;
    const wakingScan = await scannerBurst(page, card);
    await page.getByTestId('attract-screen').waitFor();
    await expect.poll(() => calls.filter((call) => call === 'wake').length).toBe(wakes + 1);
    // Every key of the burst, up to the Enter let go, met the guard, and none got past it to the wedge scanner.
    await expect.poll(async () => (await metSince(page, 0)).at(-1)).toEqual({ type: 'keyup', key: 'Enter', cancelled: true });
    await expect(inputCounts(page)).resolves.toMatchObject({ passed: 0 });
    await expect(page.getByTestId('home-screen').count()).resolves.toBe(0);
    expect(calls).not.toContain('lookupScan');

    // Awake, once the waking gesture is over, the kiosk is itself again: the same scan brings the shopper home.
    await gestureOverAfter(wakingScan.lastKeyAt);
    await scannerBurst(page, card);
    await page.getByTestId('home-screen').waitFor();
    expect(calls).toContain('lookupScan');
    await page.close();
  });
});
