import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  cardOf,
  checkShopperScreen,
  kioskSuite,
  openKioskRecordingCalls,
  tapOnScreenKeyboard,
} from '../support/kiosk-journey.node.ts';

/**
 * No card with them: the shopper finds their account by e-mail, typed on the kiosk's own
 * on-screen keyboard. A malformed address is caught on the kiosk; an unknown one by the platform.
 */
describe('shopper journey: forgot the card → e-mail on the on-screen keyboard → home', () => {
  const suite = kioskSuite({
      'session.scanner_type': 'hand_scanner',
      'session.enable_email_identification': true,
      'session.enable_on_screen_keyboard': true,
    });

  const field = (page: Page) => page.getByRole('textbox', { name: 'E-mail address' });

  /** Attract → "Forgot your card?" → the e-mail screen, its field focused and the keyboard up. */
  async function toEmailScreen(page: Page) {
    await checkShopperScreen(page, 'email-attract');
    await page.getByRole('button', { name: 'Forgot your card?' }).tap();
    await page.getByTestId('email-screen').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Find me by e-mail');
    await checkShopperScreen(page, 'email-screen');
    await field(page).tap();
    await page.getByTestId('on-screen-keyboard').waitFor();
    // Typing goes through the kiosk's keys only: the tablet's own keyboard stays away.
    await expect(field(page).getAttribute('inputmode')).resolves.toBe('none');
  }

  it('finds Sanne by the address typed on the on-screen keyboard (portrait)', async () => {
    const { page, calls } = await openKioskRecordingCalls(suite.browser, suite.kiosk, 'portrait');
    await toEmailScreen(page);
    await tapOnScreenKeyboard(page, 'sanne.devries@example.nl');
    await expect(field(page).inputValue()).resolves.toBe('sanne.devries@example.nl');
    await checkShopperScreen(page, 'email-keyboard');

    await page.getByRole('button', { name: 'Continue' }).tap();
    await page.getByTestId('home-screen').waitFor();
    await page.getByTestId('voucher-list').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Welcome back, s•••@example.nl');
    await expect(page.getByTestId('on-screen-keyboard').count()).resolves.toBe(0);
    expect(calls.filter((call) => call === 'identifyByEmail')).toHaveLength(1);

    // The platform's Sanne, with her balance and her active vouchers, is the one on screen.
    const sanne = cardOf(suite.kiosk.manifest, 'sanne.devries@example.nl');
    const contact = (await suite.kiosk.platform.findContactByEmail({ email: 'sanne.devries@example.nl' })).data;
    expect(contact.uuid).toBe(sanne.uuid);
    const balance = (await suite.kiosk.platform.getCreditBalance({ contact_uuid: sanne.uuid })).data.balance;
    await page.getByTestId('credit-balance').waitFor();
    await expect(page.getByTestId('credit-balance').locator('strong').textContent()).resolves.toBe(balance.toLocaleString('en'));
    const active = (await suite.kiosk.platform.listVouchers({ contact_uuid: sanne.uuid, status: 'ACTIVE', limit: 100 })).data;
    await expect(page.getByTestId('voucher-list').getByRole('button').count()).resolves.toBe(active.length);
    await checkShopperScreen(page, 'email-home');
    await page.close();
  });

  it('says "check the address" without asking the platform, and "no account" for an unknown one (landscape)', async () => {
    const { page, calls } = await openKioskRecordingCalls(suite.browser, suite.kiosk, 'landscape');
    await toEmailScreen(page);
    await tapOnScreenKeyboard(page, 'nobody');
    await checkShopperScreen(page, 'email-keyboard');

    await page.getByRole('button', { name: 'Continue' }).tap();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Please check the e-mail address.');
    await checkShopperScreen(page, 'email-invalid');
    expect(calls).not.toContain('identifyByEmail');

    // Finish the address and send it with the keyboard's own Done key: a well-formed address nobody has.
    await field(page).tap();
    await tapOnScreenKeyboard(page, '@example.nl');
    await expect(field(page).inputValue()).resolves.toBe('nobody@example.nl');
    await page.getByTestId('on-screen-keyboard').getByRole('button', { name: 'Done' }).tap();
    await expect(page.getByTestId('problem').textContent()).resolves.toBe('We could not find an account with this e-mail address.');
    await expect(page.getByText('Please check the e-mail address.').count()).resolves.toBe(0);
    expect(calls.filter((call) => call === 'identifyByEmail')).toHaveLength(1);
    await expect(page.getByTestId('email-screen').isVisible()).resolves.toBe(true);
    await checkShopperScreen(page, 'email-unknown');

    // The platform indeed has no such contact, and none was made.
    await expect(suite.kiosk.platform.findContactByEmail({ email: 'nobody@example.nl' })).rejects.toMatchObject({ kind: 'not_found' });
    await page.close();
  });
});
