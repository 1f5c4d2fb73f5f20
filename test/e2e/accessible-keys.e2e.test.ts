import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cardOf, kioskSuite, openKiosk, scannerBurst, screenshot } from '../support/kiosk-journey.node.ts';
import { recordingEspeak } from '../support/espeak-recorder.node.ts';
import { PRIVATE_STAND_IN } from '../../common/speech.std.ts';

/**
 * A shopper who cannot see the screen: keys only, speech from the kiosk's own voice (a recording
 * stand-in for espeak-ng, first on the kiosk's PATH). Nothing is tapped or clicked.
 */
const espeak = recordingEspeak();

/** What the page has focused: its text, whether it shows a focus ring, and the screen it is on. */
function focusOf(page: Page) {
  return page.evaluate(() => {
    const focused = document.activeElement as HTMLElement | null;
    const style = focused ? getComputedStyle(focused) : null;
    return {
      tag: focused?.tagName ?? null,
      text: focused?.textContent?.replace(/\s+/g, ' ').trim() ?? '',
      screen: focused?.closest('[data-screen]')?.getAttribute('data-testid') ?? null,
      visible: focused?.matches(':focus-visible') ?? false,
      outline: style ? `${style.outlineStyle} ${style.outlineWidth}` : null,
    };
  });
}

/** Presses `key` until the focused control's text matches `name` (at most `limit` presses). */
async function moveTo(page: Page, name: RegExp, key = 'ArrowDown', limit = 40) {
  for (let presses = 0; presses < limit; presses++) {
    await page.keyboard.press(key);
    if (name.test((await focusOf(page)).text)) return;
  }
  throw new Error(`no control like ${name} reached with ${key}`);
}

/** Waits until the stand-in was asked to say something in `voice` that matches `text`. */
async function heard(text: RegExp, voice: string) {
  await expect.poll(() => espeak.utterances().some((said) => said.voice === voice && text.test(said.text)), { timeout: 10_000 }).toBe(true);
}

describe('accessible kiosk: keys only, with speech', () => {
  const suite = kioskSuite({ 'session.scanner_type': 'hand_scanner' }, { PATH: espeak.path });

  it('a Dutch shopper redeems a voucher with keys alone, told every screen, every control and the receipt', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'landscape');
    // The first navigation key on the attract screen starts speech mode: it says how the keys work.
    await page.keyboard.press('Tab');
    await heard(/Speech is on\. Arrow Down \/ Arrow Right moves to the next choice/, 'en');

    // Dutch, chosen with the keys: the screen is said again in Dutch, in the Dutch voice.
    await moveTo(page, /^Nederlands$/);
    await heard(/^Nederlands\. button\. \d+ of \d+$/, 'en');
    await page.keyboard.press('Enter');
    await heard(/^Scan je klantenkaart/, 'nl');

    const sanne = cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl');
    await scannerBurst(page, sanne.card);
    await page.getByTestId('voucher-list').waitFor();
    // Focus went into the new screen (its heading), not to the page's body.
    await expect.poll(() => focusOf(page)).toMatchObject({ screen: 'home-screen', visible: true });
    // On a speaker, her e-mail and credits are not said.
    await heard(new RegExp(`^Welkom terug, ${PRIVATE_STAND_IN.nl}\\. Je punten\\. ${PRIVATE_STAND_IN.nl}`), 'nl');
    expect(espeak.utterances().some((said) => said.text.includes('example.nl'))).toBe(false);

    await moveTo(page, /Gratis koffie/);
    const onVoucher = await focusOf(page);
    expect(onVoucher).toMatchObject({ tag: 'BUTTON', visible: true, outline: 'solid 4px' });
    await heard(/^Gratis koffie, Geldig tot .*\. knop\. \d+ van \d+$/, 'nl');
    await page.keyboard.press('Enter');
    await page.getByTestId('voucher-screen').waitFor();
    await expect.poll(() => focusOf(page)).toMatchObject({ screen: 'voucher-screen', visible: true });
    // What the voucher is, and what can be done with it.
    await heard(/^Gratis koffie\. Een gratis kop koffie .*Je kunt kiezen uit\. Terug\. English\. Nederlands\. Inwisselen$/, 'nl');

    await moveTo(page, /^Inwisselen$/);
    await screenshot(page, 'keys-voucher-focus');
    await page.keyboard.press('Enter');
    await page.getByTestId('confirm-screen').waitFor();
    await expect.poll(() => focusOf(page)).toMatchObject({ screen: 'confirm-screen', visible: true });
    await heard(/^Deze voucher nu inwisselen\?/, 'nl');

    await moveTo(page, /^Ja, inwisselen$/);
    expect(await focusOf(page)).toMatchObject({ visible: true, outline: 'solid 4px' });
    await page.keyboard.press('Enter');
    await page.getByTestId('redeemed-screen').waitFor();
    // The receipt: what was redeemed and when, in full.
    await heard(/^Geniet ervan! Gratis koffie\. Ingewisseld op \d+ \w+ \d{4} om \d\d:\d\d/, 'nl');
    await expect.poll(() => focusOf(page)).toMatchObject({ screen: 'redeemed-screen', visible: true });

    const redeemedCode = await page.getByTestId('redeemed-screen').getAttribute('data-code');
    expect((await suite.kiosk.platform.findVoucher({ code: redeemedCode! })).data).toMatchObject({ status: 'REDEEMED', times_redeemed: 1 });
    await page.close();
  });
});
