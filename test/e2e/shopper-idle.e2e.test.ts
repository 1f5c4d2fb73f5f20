import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { cardOf, checkShopperScreen, kioskSuite, openKiosk, scannerBurst, stopPageClock } from '../support/kiosk-journey.node.ts';
import { recordingEspeak } from '../support/espeak-recorder.node.ts';
import { CONFIRM_SECONDS } from '../../renderer/visit/visit.svelte.ts';

/** The shortest idle time the config allows; the warning then counts down another 20 s (WCAG 2.2.1). */
const IDLE_SECONDS = 10;
const WARNING_SECONDS = 20;

/**
 * A shopper walks away mid-redeem: "are you still there?", then the kiosk starts over on its own,
 * gives the voucher's lock back and forgets everything about the shopper. A touch during the
 * warning keeps the visit. The idle timer runs on the page's clock, which only the test moves:
 * each wait ends to the millisecond, on a quiet machine or a busy one.
 */
describe('shopper journey: walking away', () => {
  // The kiosk's voice, recorded: the warning is said aloud too, speech mode or not.
  const espeak = recordingEspeak();
  const suite = kioskSuite({ 'session.scanner_type': 'hand_scanner', 'idle.timeoutSeconds': IDLE_SECONDS }, { PATH: espeak.path });

  const sanne = () => cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl');
  const bodyText = (page: Page) => page.evaluate(() => document.body.innerText);

  async function toHome(page: Page) {
    await scannerBurst(page, sanne().card);
    await page.getByTestId('home-screen').waitFor();
    await page.getByTestId('voucher-list').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('s•••@example.nl');
  }

  it('walks away on the confirm screen: its own countdown gives the voucher back, then the voucher screen warns, then a fresh attract screen (#33 §6)', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'portrait', { fakeClock: true });
    await stopPageClock(page);
    const freshAttract = await bodyText(page);
    await toHome(page);
    await page.getByRole('button', { name: /Gratis koffie/ }).filter({ hasText: 'Valid until' }).click();
    await page.getByTestId('voucher-screen').waitFor();
    await page.getByTestId('redeem').click();
    await page.getByTestId('confirm-screen').waitFor();
    expect((await suite.kiosk.platform.findVoucher({ code: 'KOFFIE24' })).data.status).toBe('LOCKED');

    // Hands off. No "are you still there?" over the confirm screen: its countdown is its guard, and
    // the two never run out together. At its end (to the millisecond) the voucher goes back.
    const warning = page.getByTestId('idle-warning');
    await page.clock.runFor(CONFIRM_SECONDS * 1000 - 1);
    await expect(warning.count()).resolves.toBe(0);
    await expect(page.getByTestId('confirm-screen').isVisible()).resolves.toBe(true);
    await page.clock.runFor(1);
    await page.getByTestId('voucher-screen').waitFor();
    await expect.poll(async () => (await suite.kiosk.platform.findVoucher({ code: 'KOFFIE24' })).data.status).toBe('ACTIVE');

    // The voucher screen's guard starts afresh: the warning a whole idle time later.
    await page.clock.runFor(IDLE_SECONDS * 1000 - 1);
    await expect(warning.count()).resolves.toBe(0);
    await page.clock.runFor(1);
    await warning.waitFor();
    await expect(page.getByRole('alertdialog', { name: 'Are you still there?' }).isVisible()).resolves.toBe(true);
    await expect(warning.textContent()).resolves.toMatch(/Starting over in 20 seconds/);
    await expect
      .poll(() => espeak.last())
      .toMatchObject({ voice: 'en', text: 'Are you still there? Starting over in 20 seconds. Press any key or touch the screen to stay.' });
    await expect(page.getByTestId('voucher-screen').isVisible()).resolves.toBe(true);
    await checkShopperScreen(page, 'idle-warning');

    // Still hands off: the countdown runs out (it looks four times a second) and the kiosk starts over.
    await page.clock.runFor(WARNING_SECONDS * 1000 - 250);
    await expect(warning.textContent()).resolves.toMatch(/Starting over in 1 seconds?/);
    await page.clock.runFor(250);
    await page.getByTestId('attract-screen').waitFor();
    await expect(warning.count()).resolves.toBe(0);

    // The platform has the voucher back: ACTIVE, not redeemed.
    expect((await suite.kiosk.platform.findVoucher({ code: 'KOFFIE24' })).data).toMatchObject({ status: 'ACTIVE', times_redeemed: 0, is_redeemed: false });

    // Nothing of the shopper is left on screen: exactly the attract screen the kiosk started with.
    const text = await bodyText(page);
    for (const trace of ['s•••', '•', '@', 'example.nl', 'Gratis koffie', 'Welcome back', 'seconds']) expect(text).not.toContain(trace);
    expect(text).toBe(freshAttract);
    await expect(page.evaluate(() => sessionStorage.getItem('kiosk.portalSession'))).resolves.toBeNull();
    await checkShopperScreen(page, 'idle-attract-after');

    // And the next shopper starts a visit of their own.
    await toHome(page);
    await page.close();
  });

  it('keeps the visit when the shopper touches the screen during the warning', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'landscape', { fakeClock: true });
    await stopPageClock(page);
    await toHome(page);
    // Each warning is said aloud; a test goes on only once its words reached espeak (a process of
    // its own, which writes them down a moment later), so none is counted with the next warning.
    const warningsSaid = () => espeak.utterances().filter((utterance) => /^Are you still there\?/.test(utterance.text)).length;
    const saidBefore = warningsSaid();
    const warning = page.getByTestId('idle-warning');
    await page.clock.runFor(IDLE_SECONDS * 1000);
    await warning.waitFor();
    await expect.poll(warningsSaid).toBe(saidBefore + 1);
    await checkShopperScreen(page, 'idle-warning');

    await page.getByRole('button', { name: /still here/ }).tap();
    await warning.waitFor({ state: 'detached' });
    await expect(page.getByTestId('home-screen').isVisible()).resolves.toBe(true);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('s•••@example.nl');

    // The idle time starts again from the touch: the old countdown's end passes unnoticed, and
    // the next warning comes a full idle time after the touch, still over the shopper's home screen.
    await page.clock.runFor(IDLE_SECONDS * 1000 - 1);
    await expect(warning.count()).resolves.toBe(0);
    await page.clock.runFor(1);
    await warning.waitFor();
    await expect.poll(warningsSaid).toBe(saidBefore + 2);
    await expect(page.getByTestId('home-screen').isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('attract-screen').count()).resolves.toBe(0);

    // Any touch counts, not only the button.
    await page.getByTestId('idle-warning').tap({ position: { x: 20, y: 20 } });
    await warning.waitFor({ state: 'detached' });

    // And any key: a shopper who cannot see the warning hears it, and answers it from the keypad.
    await page.clock.runFor(IDLE_SECONDS * 1000);
    await warning.waitFor();
    await expect.poll(warningsSaid).toBe(saidBefore + 3);
    expect(espeak.last()!.text).toMatch(/^Are you still there\?/);
    await page.keyboard.press('Shift');
    await warning.waitFor({ state: 'detached' });
    await page.clock.runFor(IDLE_SECONDS * 1000 - 1);
    await expect(page.getByTestId('home-screen').isVisible()).resolves.toBe(true);
    await page.getByRole('button', { name: 'I’m done' }).click();
    await page.getByTestId('attract-screen').waitFor();
    await page.close();
  });
});
