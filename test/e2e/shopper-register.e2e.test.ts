import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  checkShopperScreen,
  kioskSuite,
  openKiosk,
  openKioskRecordingCalls,
  scannerBurst,
  tapOnScreenKeyboard,
} from '../support/kiosk-journey.node.ts';

const NEW_EMAIL = 'nieuw.lid@example.nl';

/**
 * A card from the till that belongs to nobody yet: the kiosk offers to join, and joining makes
 * the contact and links the card to it, in the platform. Without consent nothing is made.
 */
describe('shopper journey: unlinked card → join → home', () => {
  const suite = kioskSuite({
      'session.scanner_type': 'hand_scanner',
      'session.enable_registration': true,
      'session.enable_on_screen_keyboard': true,
    });

  const card = () => suite.kiosk.manifest.unlinked_identifiers[0]!;
  const cardOwner = async () => (await suite.kiosk.platform.findContactIdentifier({ contact_identifier_value: card() })).data;
  const field = (page: Page) => page.getByRole('textbox', { name: 'E-mail address' });
  const consent = (page: Page) => page.getByRole('checkbox', { name: /I agree to the programme terms/ });

  /** Scan the unlinked card → "not linked" notice → "Join and link this card" → register screen, address typed. */
  async function toRegisterWithAddress(page: Page) {
    await checkShopperScreen(page, 'register-attract');
    await scannerBurst(page, card());
    await page.getByTestId('notice-screen').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('This card is not linked to an account yet.');
    await checkShopperScreen(page, 'register-notice');

    await page.getByRole('button', { name: 'Join and link this card' }).tap();
    await page.getByTestId('register-screen').waitFor();
    // On the screen itself: the screen reader's announcement (a live region) says it too.
    await page.getByTestId('register-screen').getByText('The card you scanned will be linked to your new account.').waitFor();
    await checkShopperScreen(page, 'register-screen');
    await field(page).tap();
    await tapOnScreenKeyboard(page, NEW_EMAIL);
    await expect(field(page).inputValue()).resolves.toBe(NEW_EMAIL);
  }

  it('without consent: asks to tick the box and makes nothing (landscape)', async () => {
    const { page, calls } = await openKioskRecordingCalls(suite.browser, suite.kiosk, 'landscape');
    expect((await cardOwner()).contact).toBeNull();
    await toRegisterWithAddress(page);
    await checkShopperScreen(page, 'register-keyboard');

    await page.getByRole('button', { name: 'Join', exact: true }).tap();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Please tick the box to join.');
    await expect(consent(page).isChecked()).resolves.toBe(false);
    await checkShopperScreen(page, 'register-consent-needed');

    expect(calls).not.toContain('registerShopper');
    await expect(suite.kiosk.platform.findContactByEmail({ email: NEW_EMAIL })).rejects.toMatchObject({ kind: 'not_found' });
    expect(await cardOwner()).toMatchObject({ active: true, contact: null });

    await page.getByRole('button', { name: 'Back' }).tap();
    await page.getByTestId('attract-screen').waitFor();
    await page.close();
  });

  it('lets the shopper read the programme terms over the form, and closes them with Close or the back key (portrait)', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'portrait');
    await toRegisterWithAddress(page);
    const readTerms = page.getByRole('button', { name: 'Read the programme terms' });
    await readTerms.tap();
    const dialog = page.getByRole('dialog', { name: 'Programme terms' });
    // The demo kiosk's terms (registration.termsText), over the on-screen keyboard, focus inside.
    await dialog.getByText(/^Demo programme terms\./).waitFor();
    await expect(dialog.getByRole('button', { name: 'Close' }).evaluate((close) => close === document.activeElement)).resolves.toBe(true);
    await expect(page.getByTestId('terms-dialog').evaluate((dialog) => document.elementFromPoint(innerWidth / 2, innerHeight - 40)?.closest('[data-testid="terms-dialog"]') === dialog)).resolves.toBe(true);
    await checkShopperScreen(page, 'register-terms');

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Back where the shopper was: on the join form, the address kept, the focus on the terms button.
    await expect(field(page).inputValue()).resolves.toBe(NEW_EMAIL);
    await expect(readTerms.evaluate((button) => button === document.activeElement)).resolves.toBe(true);
    await readTerms.press('Enter');
    await dialog.getByRole('button', { name: 'Close' }).tap();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('register-screen').waitFor();
    await page.close();
  });

  it('with consent: makes the contact, links the card to it, and shows its home (portrait)', async () => {
    const page = await openKiosk(suite.browser, suite.kiosk, 'portrait');
    await toRegisterWithAddress(page);
    // Ticked with the keyboard still up: the box must not move away from under the finger. The
    // shopper taps the drawn box and its sentence (the label); the native box is hidden.
    await page.getByText(/^I agree to the programme terms/).tap();
    await expect(consent(page).isChecked()).resolves.toBe(true);
    await checkShopperScreen(page, 'register-ticked');
    await page.getByRole('button', { name: 'Join', exact: true }).click();

    await page.getByTestId('home-screen').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Welcome back, n•••@example.nl');

    // In the platform: the new contact, and the card is now its card.
    const contact = (await suite.kiosk.platform.findContactByEmail({ email: NEW_EMAIL })).data;
    expect(contact).toMatchObject({ email: NEW_EMAIL });
    expect(suite.kiosk.manifest.contacts.map((known) => known.uuid)).not.toContain(contact.uuid);
    // Linked beside the home's loading (#32): it may land just after the home shows.
    await expect.poll(cardOwner).toMatchObject({ value: card(), active: true, contact: { uuid: contact.uuid } });

    const vouchers = (await suite.kiosk.platform.listVouchers({ contact_uuid: contact.uuid, status: 'ACTIVE', limit: 100 })).data;
    if (vouchers.length === 0) await page.getByTestId('home-screen').getByText('No vouchers right now. Keep collecting!').waitFor();
    else await expect(page.getByTestId('voucher-list').getByRole('button').count()).resolves.toBe(vouchers.length);
    await checkShopperScreen(page, 'register-home');

    // The next visit with the same card goes straight to the new member's home.
    await page.getByRole('button', { name: 'I’m done' }).click();
    await page.getByTestId('attract-screen').waitFor();
    await scannerBurst(page, card());
    await page.getByTestId('home-screen').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Welcome back, n•••@example.nl');
    await page.close();
  });
});
