import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cardOf, checkShopperScreen, kioskctl, kioskEvents, kioskSuite, openKiosk, scannerBurst, screenshot } from '../support/kiosk-journey.node.ts';
import path from 'node:path';
import { recordingEspeak } from '../support/espeak-recorder.node.ts';
import { sinks, standInPactl } from '../../main/speech/stand-in-pactl.test-support.ts';
import { PRIVATE_STAND_IN } from '../../common/speech.std.ts';

/**
 * A shopper who cannot see the screen: keys only, speech from the kiosk's own voice (a recording
 * stand-in for espeak-ng, first on the kiosk's PATH). Nothing is tapped or clicked.
 */
const espeak = recordingEspeak();
/** The kiosk's sound server, as pactl tells it: a speaker until a test plugs a headset in. */
const SPEAKER = sinks('analog-output-speaker', 'not available');
const pactl = standInPactl(SPEAKER);

/** What the page has focused: its text, whether it shows a focus ring, and the screen it is on. */
function focusOf(page: Page) {
  return page.evaluate(() => {
    const focused = document.activeElement as HTMLElement | null;
    const style = focused ? getComputedStyle(focused) : null;
    return {
      tag: focused?.tagName ?? null,
      type: focused instanceof HTMLInputElement ? focused.type : null,
      text: focused?.textContent?.replace(/\s+/g, ' ').trim() ?? '',
      screen: focused?.closest('[data-screen]')?.getAttribute('data-testid') ?? null,
      label: focused?.getAttribute('aria-label') ?? null,
      visible: focused?.matches(':focus-visible') ?? false,
      // WCAG 2.4.13 asks at least 2 px as shown (the page may be scaled to its panel, or to the reach band).
      outline: style ? `${style.outlineStyle} ${parseFloat(style.outlineWidth) >= 2 ? 'at least 2px' : style.outlineWidth}` : null,
    };
  });
}

type Focus = Awaited<ReturnType<typeof focusOf>>;

/** Presses `key` until the focused control's text matches `target` (or `target` takes it), at most `limit` times. */
async function moveTo(page: Page, target: RegExp | ((focus: Focus) => boolean), key = 'ArrowDown', limit = 40) {
  const reached = typeof target === 'function' ? target : (focus: Focus) => target.test(focus.text);
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press(key);
    if (reached(await focusOf(page))) return;
  }
  throw new Error(`no control like ${String(target)} reached with ${key}`);
}
const aField = (focus: Focus) => focus.type === 'email' || focus.type === 'text';

/** Types `text` on the on-screen keyboard by keypad alone, a key at a time. */
async function typeByKeypad(page: Page, text: string) {
  for (const character of text) await pressKeyByKeypad(page, character);
}

/** Moves to the on-screen key named `name` (its text or its spoken name) by keypad alone, and presses it. */
async function pressKeyByKeypad(page: Page, name: string) {
  await moveToKey(page, name);
  await page.keyboard.press('Enter');
}

/**
 * Moves the keypad onto the key named `name`: up or down to its row (the keyboard puts it on the
 * key under the one it was on), then the shorter way round the row with the left and right arrows.
 */
async function moveToKey(page: Page, name: string) {
  for (let looks = 0; looks < 6; looks++) {
    const { focused, target } = await keyPositions(page, name);
    if (!focused || !target) throw new Error(`no key ${name}, or the keypad is not on the keyboard`);
    if (focused.row === target.row && focused.column === target.column) return;
    if (focused.row !== target.row) {
      const key = target.row > focused.row ? 'ArrowDown' : 'ArrowUp';
      for (let step = 0; step < Math.abs(target.row - focused.row); step++) await page.keyboard.press(key);
      continue;
    }
    const right = (target.column - focused.column + focused.width) % focused.width;
    const [key, steps] = right <= focused.width - right ? ['ArrowRight', right] : ['ArrowLeft', focused.width - right];
    for (let step = 0; step < steps; step++) await page.keyboard.press(key);
  }
  throw new Error(`the keypad did not reach the key ${name}`);
}

/** Row and column (and the row's width) of the focused key and of the key named `name`, in the keyboard shown. */
function keyPositions(page: Page, name: string) {
  return page.evaluate((wanted) => {
    const rows = [...document.querySelectorAll('[data-key-grid] .row')];
    const at = (key: Element | null | undefined) => {
      const row = key?.parentElement;
      const index = row ? rows.indexOf(row) : -1;
      return index === -1 ? null : { row: index, column: [...row!.children].indexOf(key!), width: row!.children.length };
    };
    const target = rows.flatMap((row) => [...row.children]).find((key) => key.textContent?.trim() === wanted || key.getAttribute('aria-label') === wanted);
    return { focused: at(document.activeElement), target: at(target) };
  }, name);
}

/** The background and text colour `selector`'s element is painted in. */
function paintOf(page: Page, selector: string) {
  return page.locator(selector).first().evaluate((element) => ({ background: getComputedStyle(element).backgroundColor, color: getComputedStyle(element).color }));
}

/** Waits until the stand-in was asked to say something in `voice` that matches `text`. */
async function heard(text: RegExp, voice: string) {
  await expect.poll(() => espeak.utterances().some((said) => said.voice === voice && text.test(said.text)), { timeout: 10_000 }).toBe(true);
}

/**
 * The shopper ends her visit herself, by keys: a page closed mid-visit would have main end it a
 * few seconds later, silencing whatever the next test's page says.
 */
async function endVisitByKeys(page: Page, done = /^I’m done$/) {
  await moveTo(page, done);
  await page.keyboard.press('Enter');
  await page.getByTestId('attract-screen').waitFor();
}

describe('accessible kiosk: keys only, with speech', () => {
  const suite = kioskSuite({ 'session.scanner_type': 'hand_scanner' }, { PATH: `${path.dirname(pactl.program)}${path.delimiter}${espeak.path}` });

  /** Sanne's card scanned: her home, with her vouchers. */
  async function sanneAtHome(page: Page) {
    await scannerBurst(page, cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl').card);
    await page.getByTestId('voucher-list').waitFor();
  }

  it('a Dutch shopper redeems a voucher with keys alone, told every screen, every control and the receipt', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'landscape');
    // The first navigation key on the attract screen starts speech mode: it says how the keys work.
    await page.keyboard.press('Tab');
    await heard(/Speech is on\. Arrow Down \/ Arrow Right moves to the next choice/, 'en');
    // Speech mode lowers the screens into the reach band by itself (a wide 32" panel from 900 mm).
    await page.locator('main.kiosk.low-reach').waitFor();

    // Dutch, chosen with the keys: one "Language" choice, not one per language (#33 §12); selecting
    // it moves on to the next. The screen is said again in Dutch, in the Dutch voice.
    await moveTo(page, /^English$/);
    await heard(/^Language: English\. button, selected\. \d+ of \d+$/, 'en');
    await page.keyboard.press('Enter');
    await heard(/^Scan je klantenkaart/, 'nl');
    await expect.poll(() => focusOf(page)).toMatchObject({ text: 'Nederlands', label: 'Taal: Nederlands' });

    const sanne = cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl');
    await scannerBurst(page, sanne.card);
    await page.getByTestId('voucher-list').waitFor();
    // Focus went into the new screen (its heading), not to the page's body.
    await expect.poll(() => focusOf(page)).toMatchObject({ screen: 'home-screen', visible: true });
    // On a speaker, her e-mail and credits are not said.
    await heard(new RegExp(`^Welkom terug, ${PRIVATE_STAND_IN.nl}\\. Je punten\\. ${PRIVATE_STAND_IN.nl}`), 'nl');
    // Once a visit, how she could hear them (#33 §8).
    await heard(new RegExp(`^Welkom terug, ${PRIVATE_STAND_IN.nl}\\..* Sluit een koptelefoon aan om ze te horen\\.$`), 'nl');
    // And how many vouchers she has (#33 §10).
    await heard(new RegExp(`^Welkom terug, .*Je vouchers: ${(await suite.kiosk.platform.listVouchers({ contact_uuid: sanne.uuid, status: 'ACTIVE', limit: 100 })).data.length}\\.`), 'nl');
    expect(espeak.utterances().some((said) => said.text.includes('example.nl'))).toBe(false);

    await moveTo(page, /Gratis koffie/);
    // The ring settles once the button's own transition has run.
    await expect.poll(() => focusOf(page)).toMatchObject({ tag: 'BUTTON', visible: true, outline: 'solid at least 2px' });
    await heard(/^Gratis koffie, Geldig tot .*\. knop\. \d+ van \d+$/, 'nl');
    await page.keyboard.press('Enter');
    await page.getByTestId('voucher-screen').waitFor();
    await expect.poll(() => focusOf(page)).toMatchObject({ screen: 'voucher-screen', visible: true });
    // What the voucher is, and what can be done with it: the action first, the way back last (#33 §12).
    await heard(/^Gratis koffie\. Een gratis kop koffie .*Je kunt kiezen uit\. Inwisselen\. Taal: Nederlands\. Terug$/, 'nl');

    await moveTo(page, /^Inwisselen$/);
    await screenshot(page, 'keys-voucher-focus');
    await page.keyboard.press('Enter');
    await page.getByTestId('confirm-screen').waitFor();
    await expect.poll(() => focusOf(page)).toMatchObject({ screen: 'confirm-screen', visible: true });
    // With its time limit (#33 §6): in speech mode twice the 60 s (accessibility.speechTimeoutFactor).
    await heard(/^Deze voucher nu inwisselen\?.*Nog 120 seconden/, 'nl');

    // More time, by keys: the countdown starts again, and the focus stays on the button.
    await moveTo(page, /^Meer tijd$/);
    await page.keyboard.press('Enter');
    await heard(/^Meer tijd gegeven: het aftellen begint opnieuw\.$/, 'nl');
    await expect.poll(() => focusOf(page)).toMatchObject({ text: 'Meer tijd', screen: 'confirm-screen' });
    await moveTo(page, /^Ja, inwisselen$/);
    await expect.poll(() => focusOf(page)).toMatchObject({ visible: true, outline: 'solid at least 2px' });
    await page.keyboard.press('Enter');
    await page.getByTestId('redeemed-screen').waitFor();
    // The receipt: what was redeemed and when, in full; then what to do at the till, and the proof code digit by digit (#31 §2).
    const proof = (await page.getByTestId('proof').getAttribute('data-proof-code'))!;
    const receipt = new RegExp(
      `^Geniet ervan! Gratis koffie\\. Ingewisseld op \\d+ \\w+ \\d{4} om \\d\\d:\\d\\d.*Laat dit scherm zien bij de kassa.*Bewijscode: ${[...proof].join(' ')}`,
    );
    await heard(receipt, 'nl');
    await expect.poll(() => focusOf(page)).toMatchObject({ screen: 'redeemed-screen', visible: true });
    // Said again on the repeat key, after a volume key too: where she is, not "Volume …" (#33 §10).
    await page.keyboard.press('PageUp');
    await heard(/^Volume \d+ procent$/, 'nl');
    const before = espeak.utterances().filter((said) => receipt.test(said.text)).length;
    await page.keyboard.press('F2');
    await expect.poll(() => espeak.utterances().filter((said) => receipt.test(said.text)).length, { timeout: 10_000 }).toBe(before + 1);

    const redeemedCode = await page.getByTestId('redeemed-screen').getAttribute('data-code');
    expect((await suite.kiosk.platform.findVoucher({ code: redeemedCode! })).data).toMatchObject({ status: 'REDEEMED', times_redeemed: 1 });
    await page.close();
  });

  it('typed codes, e-mail and joining by keys alone; Back keeps the language, the end of the visit ends speech', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'portrait');
    await page.keyboard.press('ArrowDown');
    await heard(/^Speech is on\./, 'en');
    await moveTo(page, /^English$/);
    await page.keyboard.press('Enter');

    // A typed card number: the field takes the focus; a person's keys are typing, not a scan.
    await moveTo(page, /^Typ je kaartnummer of code$/);
    await page.keyboard.press('Enter');
    await page.getByTestId('type-code-screen').waitFor();
    await expect.poll(() => focusOf(page)).toMatchObject({ tag: 'INPUT', screen: 'type-code-screen' });
    await heard(/^Typ je kaartnummer of vouchercode/, 'nl');
    // Escape goes back, and the shopper's language stays.
    await page.keyboard.press('Escape');
    await page.getByTestId('attract-screen').waitFor();
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('nl');
    await moveTo(page, /^Typ je kaartnummer of code$/);
    await page.keyboard.press('Enter');
    await expect.poll(() => focusOf(page)).toMatchObject({ tag: 'INPUT', screen: 'type-code-screen' });
    await page.keyboard.type(cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl').card, { delay: 120 });
    await page.keyboard.press('Enter');
    await page.getByTestId('voucher-list').waitFor();
    await heard(/^Welkom terug, /, 'nl');

    // Done: the visit ends, and speech mode with it; the next shopper starts in English, without speech.
    await moveTo(page, /^Ik ben klaar$/);
    // The button's own announcement is counted before the visit ends: on a loaded machine it can
    // reach the stand-in after the focus does.
    await heard(/^Ik ben klaar\. knop/, 'nl');
    const before = espeak.utterances().length;
    await page.keyboard.press('Enter');
    await page.getByTestId('attract-screen').waitFor();
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('en');
    // It says so, in her language, and nothing after that (#33 §10).
    await expect.poll(() => espeak.utterances().slice(before).filter((said) => !said.stopped).map(({ voice, text }) => ({ voice, text }))).toEqual([
      { voice: 'nl', text: 'Je bezoek is afgelopen. Tot ziens.' },
    ]);

    // E-mail: a mistake is said, naming the field; then the address finds her.
    await page.keyboard.press('ArrowDown');
    await heard(/^Speech is on\./, 'en');
    await moveTo(page, /^Forgot your card\?$/);
    await page.keyboard.press('Enter');
    await page.getByTestId('email-screen').waitFor();
    await expect.poll(() => focusOf(page)).toMatchObject({ tag: 'INPUT', screen: 'email-screen' });
    await page.keyboard.type('sanne', { delay: 120 });
    await page.keyboard.press('Enter');
    await heard(/^Please check the e-mail address\.$/, 'en');
    // Back to the field: it is said with what it holds (on a speaker, the stand-in phrase).
    await moveTo(page, aField);
    // The headset hint comes with the first stand-in heard this visit: here, unless an echo of her typing was heard first.
    await heard(new RegExp(`^E-mail address\\. text field\\. ${PRIVATE_STAND_IN.en}\\. \\d of \\d(\\. Plug in a headset to hear them\\.)?$`), 'en');
    await page.keyboard.press('End');
    await page.keyboard.type('.devries@example.nl', { delay: 120 });
    await page.keyboard.press('Enter');
    await page.getByTestId('voucher-list').waitFor();
    await heard(/^Welcome back, /, 'en');
    await endVisitByKeys(page);

    // Joining: the field, the consent box (Space ticks it) and Join, all by keys.
    await page.keyboard.press('ArrowDown');
    await moveTo(page, /^Join now$/);
    await page.keyboard.press('Enter');
    await page.getByTestId('register-screen').waitFor();
    await expect.poll(() => focusOf(page)).toMatchObject({ tag: 'INPUT', screen: 'register-screen' });
    await page.keyboard.type('new.member@example.nl', { delay: 120 });
    // The terms by keys: said in full; an arrow says the one control there is; Tab stays inside;
    // Escape returns to the button that opened them, which is said (#33 §12).
    const saidTimes = (text: RegExp) => espeak.utterances().filter((said) => text.test(said.text)).length;
    await moveTo(page, /^Read the programme terms$/);
    await heard(/^Read the programme terms\. button/, 'en');
    const openerSaid = saidTimes(/^Read the programme terms\. button/);
    await page.keyboard.press('Enter');
    await page.getByTestId('terms-dialog').waitFor();
    await heard(/^Programme terms\. Demo programme terms\./, 'en');
    const closeSaid = saidTimes(/^Close\. button\. 1 of 1$/);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => saidTimes(/^Close\. button\. 1 of 1$/)).toBe(closeSaid + 1);
    for (const key of ['Tab', 'Tab', 'Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      await expect(page.evaluate(() => document.activeElement?.closest('[data-testid="terms-dialog"]') !== null)).resolves.toBe(true);
    }
    await page.keyboard.press('Escape');
    await page.getByTestId('terms-dialog').waitFor({ state: 'detached' });
    await expect.poll(() => focusOf(page)).toMatchObject({ text: 'Read the programme terms', screen: 'register-screen' });
    await expect.poll(() => saidTimes(/^Read the programme terms\. button/)).toBe(openerSaid + 1);
    await moveTo(page, (focus) => focus.type === 'checkbox');
    await heard(/^I agree to the programme terms.*\. checkbox, not checked\. \d+ of \d+$/, 'en');
    await page.keyboard.press('Space');
    await heard(/checkbox, checked/, 'en');
    await moveTo(page, /^Join$/);
    await page.keyboard.press('Enter');
    await page.getByTestId('home-screen').waitFor();
    await heard(/^Welcome/, 'en');
    expect((await suite.kiosk.platform.findContactByEmail({ email: 'new.member@example.nl' })).data).toMatchObject({ email: 'new.member@example.nl' });

    // The platform's hosted page, in and out by keys: My account opens it, and the back key
    // (or I'm done, which the arrows reach, never stuck in the page's frame) leaves it and ends the visit.
    await moveTo(page, /^My account/);
    await page.keyboard.press('Enter');
    await page.getByTestId('portal-screen').waitFor();
    // Named for what it is, said to be the platform's own page, with the way out (#33 §2).
    await heard(
      /^My account\. This is the loyalty platform’s own page: the kiosk cannot read it to you\. To leave it, press Escape or choose I’m done\. Continue on your phone: scan this code\. You can choose\. I’m done$/,
      'en',
    );
    await screenshot(page, 'keys-hosted-page');
    await moveTo(page, /^I’m done$/);
    await heard(/^I’m done\. button\. 1 of 1$/, 'en');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusOf(page)).toMatchObject({ tag: 'BUTTON', text: 'I’m done' });
    await page.keyboard.press('Escape');
    await page.getByTestId('attract-screen').waitFor();
    await page.close();
  });

  it('high contrast: one key on the attract screen, kept through the visit, axe-clean and whole in both orientations, gone with the visit', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'portrait');
    // The first arrow starts speech, whose shorter list has no visual modes (#33 §12): a sighted
    // shopper turns it off again, and the visual modes are there.
    await page.keyboard.press('ArrowDown');
    await heard(/^Speech is on\./, 'en');
    await expect(moveTo(page, /High contrast$/, 'ArrowDown', 20)).rejects.toThrow(/no control like/);
    await moveTo(page, /Speech$/);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('speech').getAttribute('aria-pressed')).resolves.toBe('false');
    await moveTo(page, /High contrast$/);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('high-contrast').getAttribute('aria-pressed')).resolves.toBe('true');
    const colours = () => page.evaluate(() => ({ mode: document.querySelector('main.kiosk')!.classList.contains('high-contrast'), brand: getComputedStyle(document.querySelector('main.kiosk')!).getPropertyValue('--brand') }));
    await expect(colours()).resolves.toEqual({ mode: true, brand: '#000000' });
    await checkShopperScreen(page, 'high-contrast-attract');
    await sanneAtHome(page);
    await checkShopperScreen(page, 'high-contrast-home');
    await moveTo(page, /Gratis koffie|Free coffee/);
    await page.keyboard.press('Enter');
    await page.getByTestId('voucher-screen').waitFor();
    await expect(colours()).resolves.toEqual({ mode: true, brand: '#000000' });
    await checkShopperScreen(page, 'high-contrast-voucher');
    // No tint left on the confirm countdown or the redeemed screen: black on white (#33 §13).
    await moveTo(page, /^Redeem$/);
    await page.keyboard.press('Enter');
    await page.getByTestId('confirm-screen').waitFor();
    await expect(paintOf(page, '.countdown')).resolves.toEqual({ background: 'rgb(255, 255, 255)', color: 'rgb(0, 0, 0)' });
    await moveTo(page, /^Yes, redeem it$/);
    await page.keyboard.press('Enter');
    await page.getByTestId('redeemed-screen').waitFor();
    await expect(paintOf(page, '[data-testid="redeemed-screen"]')).resolves.toEqual({ background: 'rgb(255, 255, 255)', color: 'rgb(0, 0, 0)' });
    await checkShopperScreen(page, 'high-contrast-redeemed');
    await endVisitByKeys(page, /^Done$/);
    await expect(colours()).resolves.toMatchObject({ mode: false });
    await page.close();
  });

  it('high contrast reaches the on-screen keyboard: white keys outlined in black, no grey panel (#33 §13)', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'portrait');
    await page.getByTestId('high-contrast').tap();
    await page.getByRole('button', { name: /Type your card number/ }).tap();
    await page.getByTestId('on-screen-keyboard').waitFor();
    await expect(paintOf(page, '[data-testid="on-screen-keyboard"]')).resolves.toMatchObject({ background: 'rgb(255, 255, 255)' });
    await checkShopperScreen(page, 'high-contrast-keyboard');
    await page.getByRole('button', { name: 'Back', exact: true }).tap();
    await page.getByTestId('attract-screen').waitFor();
    await page.close();
  });

  it('a paper voucher that needs a card says so, and where the scanner is; the card scanned for it says the voucher again, ready to redeem (#33 §3, §12)', async () => {
    await withSetting('scanner.placement', 'below', 'unstated', async () => {
      const page = await openKiosk(suite.browser, suite.kiosk, 'portrait');
      await expect(page.getByTestId('scan-hint').textContent()).resolves.toMatch(/ The scanner is below the screen\.$/);
      await page.keyboard.press('ArrowDown');
      await heard(/^Speech is on\./, 'en');
      await scannerBurst(page, 'KF9R4TBZ');
      await page.getByTestId('voucher-screen').waitFor();
      await heard(/^Gratis koffie\. .*Scan your loyalty card to use this voucher\. The scanner is below the screen\./, 'en');
      const saidBefore = espeak.utterances().length;
      await scannerBurst(page, cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl').card);
      await page.getByTestId('redeem').and(page.locator(':enabled')).waitFor();
      await expect
        .poll(() => espeak.utterances().slice(saidBefore).map((said) => said.text))
        .toContainEqual(expect.stringMatching(/^Gratis koffie\. (?!.*Scan your loyalty card).*You can choose\. Redeem\./));
      // Back goes to her home now: she is known.
      await page.keyboard.press('Escape');
      await page.getByTestId('home-screen').waitFor();
      await endVisitByKeys(page);
      await page.close();
    });
  });

  it('a blocked card: the kiosk calls staff when asked, says so aloud, and logs the call (#33 §11)', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'portrait');
    await page.keyboard.press('ArrowDown');
    await heard(/^Speech is on\./, 'en');
    await scannerBurst(page, suite.kiosk.manifest.inactive_identifiers![0]!);
    await page.getByTestId('notice-screen').waitFor();
    await heard(/^This card is blocked\. Please ask a member of staff\..*You can choose\. Call staff\./, 'en');
    await moveTo(page, /^Call staff$/);
    await page.keyboard.press('Enter');
    await heard(/^Staff have been called to this kiosk\. Someone will come to help you\.$/, 'en');
    await expect(page.getByTestId('staff-called').textContent()).resolves.toBe('Staff have been called.');
    expect(kioskEvents(suite.kiosk.dataDir, 'staff.called').at(-1)).toMatchObject({ reason: 'problem.card.inactive' });
    await endVisitByKeys(page, /^Start over$/);
    await page.close();
  });

  it('a shopper who scanned first starts speech with an arrow, and sets her own speed for the visit (#33 §4)', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'landscape');
    await sanneAtHome(page);
    await page.keyboard.press('ArrowDown');
    await heard(/^Speech is on\. .*F3 and F4 the speed.*Welcome back, /, 'en');
    // Her own speed, a step at a time, said at the new speed; the next visit starts at the normal one.
    const saidAt = (text: RegExp) => espeak.utterances().filter((said) => text.test(said.text)).map((said) => said.rate);
    await page.keyboard.press('F4');
    await expect.poll(() => saidAt(/^Speed 113 percent$/)).toEqual([180]);
    await page.keyboard.press('F3');
    await page.keyboard.press('F3');
    await expect.poll(() => saidAt(/^Speed 88 percent$/)).toEqual([140]);
    await moveTo(page, /^I’m done$/);
    expect(espeak.last()).toMatchObject({ rate: 140 });
    await page.keyboard.press('Enter');
    await page.getByTestId('attract-screen').waitFor();
    const welcomes = saidAt(/^Speech is on\./).length;
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => saidAt(/^Speech is on\./).slice(welcomes)).toEqual([160]);
    await page.close();
  });

  it('a headset plugged in mid-visit starts speech: how the keys work, then the screen, now with what is private (#33 §4)', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'landscape');
    await sanneAtHome(page);
    pactl.change(sinks('analog-output-headphones', 'available'));
    try {
      await heard(/^Speech is on\. .*Welcome back, s hidden letters @example\.nl\. Your credits\. [\d,]+/, 'en');
      await endVisitByKeys(page);
    } finally {
      pactl.change(SPEAKER);
    }
    await page.close();
  });

  it('the attract screen says how to hear the kiosk, and a touch on Speech starts it, then offers Dutch in Dutch, in both orientations (#33 §4, §7)', async () => {
    for (const viewport of ['portrait', 'landscape'] as const) {
      const page = await openKiosk(suite.browser, suite.kiosk, viewport);
      await expect(page.getByTestId('speech-hint').textContent()).resolves.toBe('To hear the kiosk, press Arrow Down or touch Speech.');
      const toggle = page.getByTestId('speech');
      const welcomes = () => espeak.utterances().filter((said) => /^Speech is on\..*To hear the kiosk, press Arrow Down or touch Speech\./.test(said.text)).length;
      const before = welcomes();
      const offers = () => espeak.utterances().filter((said) => said.voice === 'nl' && said.text === 'Voor Nederlands: kies Language: English.').length;
      const offered = offers();
      await toggle.tap();
      await expect.poll(welcomes).toBe(before + 1);
      await expect(toggle.getAttribute('aria-pressed')).resolves.toBe('true');
      // Then each other language, in its own words and voice, once the store's has been said (#33 §7).
      await expect.poll(offers, { timeout: 20_000 }).toBe(offered + 1);
      await checkShopperScreen(page, 'attract-speech-on');
      await toggle.tap();
      await expect(toggle.getAttribute('aria-pressed')).resolves.toBe('false');
      await page.close();
    }
  });

  it('says private data when the audio goes to a headset (accessibility.audio.private)', async () => {
    await onHeadset(async () => {
      const page = await openKiosk(suite.browser, suite.kiosk, 'landscape');
      await page.keyboard.press('ArrowDown');
      await heard(/^Speech is on\./, 'en');
      await scannerBurst(page, cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl').card);
      await heard(/^Welcome back, s hidden letters @example\.nl\. Your credits\. [\d,]+\./, 'en');
      await page.close();
    });
  });

  it('types a card number (in Dutch) and an e-mail (in English) by keypad alone: each key echoed, the field read back (#33 §1, §9)', async () => {
    await onHeadset(async () => {
      const page = await openKiosk(suite.browser, suite.kiosk, 'portrait');
      await page.keyboard.press('ArrowDown');
      await heard(/^Speech is on\./, 'en');
      await moveTo(page, /^English$/);
      await page.keyboard.press('Enter');
      await moveTo(page, /^Typ je kaartnummer of code$/);
      await page.keyboard.press('Enter');
      await expect.poll(() => focusOf(page)).toMatchObject({ tag: 'INPUT', screen: 'type-code-screen' });
      // Down from the field onto its keyboard: how to type there is said first.
      const fromKeyboard = espeak.utterances().length;
      await page.keyboard.press('ArrowDown');
      await heard(/^Toetsenbord\. Met de pijltjestoetsen .* Enter typt de toets waarop je staat, F2 leest voor wat je hebt getypt\..*\. 1$/, 'nl');
      const card = cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl').card;
      // The key is said as the keypad reaches it, and once more as it types (the echo).
      await moveToKey(page, card[0]!);
      const endsInDigit = new RegExp(`(^|\\. )${card[0]}$`);
      const saidDigit = () => espeak.utterances().slice(fromKeyboard).filter((said) => said.voice === 'nl' && endsInDigit.test(said.text)).length;
      await expect.poll(saidDigit).toBeGreaterThan(0);
      const digitSaid = saidDigit();
      await page.keyboard.press('Enter');
      await expect.poll(saidDigit).toBe(digitSaid + 1);
      await typeByKeypad(page, card.slice(1));
      await screenshot(page, 'keys-keypad-typing');
      await expect(page.getByTestId('type-code-screen').locator('input').inputValue()).resolves.toBe(card);
      // Read back on the repeat key, digit by digit.
      await page.keyboard.press('F2');
      await heard(new RegExp(`^Kaartnummer of vouchercode\\. ${[...card].join(' ')}$`), 'nl');
      await pressKeyByKeypad(page, 'Klaar');
      await page.getByTestId('voucher-list').waitFor();
      await heard(/^Welkom terug, s verborgen letters @example\.nl/, 'nl');
      await endVisitByKeys(page, /^Ik ben klaar$/);

      await page.keyboard.press('ArrowDown');
      await heard(/^Speech is on\./, 'en');
      await moveTo(page, /^Forgot your card\?$/);
      await page.keyboard.press('Enter');
      await expect.poll(() => focusOf(page)).toMatchObject({ tag: 'INPUT', screen: 'email-screen' });
      await page.keyboard.press('ArrowDown');
      await typeByKeypad(page, 'sanne.devries@example');
      await pressKeyByKeypad(page, '.nl');
      await heard(/^dot n l$/, 'en');
      // A key typed wrong, taken back with the keyboard's own Backspace.
      await typeByKeypad(page, 'x');
      await pressKeyByKeypad(page, 'Backspace');
      await heard(/^x deleted$/, 'en');
      await page.keyboard.press('F2');
      await heard(/^E-mail address\. s a n n e dot d e v r i e s at e x a m p l e dot n l$/, 'en');
      await pressKeyByKeypad(page, 'Done');
      await page.getByTestId('voucher-list').waitFor();
      await heard(/^Welcome back, /, 'en');
      await endVisitByKeys(page);
      await page.close();
    });
  });

  it('joins and pays with a giftcard (in Dutch) by keypad alone: the consent box ticked with the select key, the amount typed on its keypad (#33 §1)', async () => {
    await withSetting('kiosk.modes', 'regular,redeem-giftcards', 'regular', async () => {
      const page = await openKiosk(suite.browser, suite.kiosk, 'landscape');
      await page.keyboard.press('ArrowDown');
      await heard(/^Speech is on\./, 'en');
      await moveTo(page, /^English$/);
      await page.keyboard.press('Enter');
      await moveTo(page, /^Word lid$/);
      await page.keyboard.press('Enter');
      await expect.poll(() => focusOf(page)).toMatchObject({ tag: 'INPUT', screen: 'register-screen' });
      await page.keyboard.press('ArrowDown');
      await typeByKeypad(page, 'keypad.lid@example');
      await pressKeyByKeypad(page, '.nl');
      await pressKeyByKeypad(page, 'Klaar');
      // A keypad's select key is Enter: on the consent box it ticks it, as Space would.
      await moveTo(page, (focus) => focus.type === 'checkbox');
      await page.keyboard.press('Enter');
      await heard(/selectievakje, aangevinkt/, 'nl');
      await moveTo(page, /^Lid worden$/);
      await page.keyboard.press('Enter');
      await page.getByTestId('home-screen').waitFor();
      expect((await suite.kiosk.platform.findContactByEmail({ email: 'keypad.lid@example.nl' })).data).toMatchObject({ email: 'keypad.lid@example.nl' });

      // Her home's tile for a giftcard asks the amount first, typed on its own keypad.
      await moveTo(page, /^Betalen met een cadeaukaart/);
      await page.keyboard.press('Enter');
      await page.getByTestId('amount-screen').waitFor();
      await moveTo(page, (focus) => focus.screen === 'amount-screen' && /^\d$/.test(focus.text));
      await typeByKeypad(page, '1250');
      await expect(page.getByTestId('amount').textContent()).resolves.toMatch(/^€\s?12,50$/);
      await pressKeyByKeypad(page, 'Klaar');
      await page.getByTestId('portal-screen').waitFor();
      await heard(/^Betalen met een cadeaukaart\./, 'nl');
      await page.keyboard.press('Escape');
      await page.getByTestId('attract-screen').waitFor();
      await page.close();
    });
  });

  /** `work` with the audio private (a headset): what a shopper types or owns is said in full. */
  const onHeadset = (work: () => Promise<void>) => withSetting('accessibility.audio.private', 'true', 'false', work);

  /**
   * `work` with `key` set to `value` in the running kiosk, and `key` back to `restore` before the
   * next test starts (its visit must not run half on this setting).
   */
  async function withSetting(key: string, value: string, restore: string, work: () => Promise<void>) {
    const reloads = kioskEvents(suite.kiosk.dataDir, 'config.reloaded').length;
    expect(await kioskctl(suite.kiosk.dataDir, 'config', 'set', key, value)).toMatchObject({ code: 0 });
    try {
      // The running kiosk takes kioskctl's change from its file a moment later: the visit starts after it has.
      await expect.poll(() => kioskEvents(suite.kiosk.dataDir, 'config.reloaded').length).toBeGreaterThan(reloads);
      await work();
    } finally {
      const restored = kioskEvents(suite.kiosk.dataDir, 'config.reloaded').length;
      await kioskctl(suite.kiosk.dataDir, 'config', 'set', key, restore);
      await expect.poll(() => kioskEvents(suite.kiosk.dataDir, 'config.reloaded').length).toBeGreaterThan(restored);
    }
  }
});
