import jsQR from 'jsqr';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../main/config/config-store.node.ts';
import { silentLogger } from '../../main/logging/logger.std.ts';
import type { KioskConfig, KioskMode } from '../../common/config-schema.std.ts';
import { launchChromium } from '../support/chromium.node.ts';
import { cardOf, checkShopperScreen, openKiosk, startKiosk, scannerBurst, kioskEvents, type KioskUnderTest, visitSessionLogged } from '../support/kiosk-journey.node.ts';

/**
 * Every kiosk mode on one running kiosk: the mode (and a session setting) change in config.json
 * the way kioskctl changes them, the host picks the file up and the open page follows. Each
 * mode's portal session is checked in the sandbox: its type, shop, contact and the session
 * settings the kiosk sent, and the hosted page the kiosk frames.
 */

const START_LABEL: Record<KioskMode, string> = {
  regular: 'My account',
  'credit-reception': 'Collect credits',
  'redeem-giftcards': 'Pay with a giftcard',
  'top-up-giftcards': 'Top up a giftcard',
  'pay-prepaid': 'Pay with prepaid balance',
  'top-up-prepaid': 'Top up my balance',
  vouchers: 'All my vouchers',
};

/** The sandbox's session type per mode, and the title its hosted page shows for it. */
const SESSION_TYPE: Record<KioskMode, { type: string; title: string }> = {
  regular: { type: 'default', title: 'Loyalty portal' },
  'credit-reception': { type: 'credit_reception', title: 'Collect credits' },
  'redeem-giftcards': { type: 'redeem_giftcards', title: 'Pay with a giftcard' },
  'top-up-giftcards': { type: 'top_up_giftcards', title: 'Top up a giftcard' },
  'pay-prepaid': { type: 'pay_prepaid', title: 'Pay with prepaid balance' },
  'top-up-prepaid': { type: 'top_up_prepaid', title: 'Top up prepaid balance' },
  vouchers: { type: 'vouchers', title: 'Your vouchers' },
};

/** Hosted modes start from the attract screen, half of them by card and half by the button. */
const HOSTED: Array<{ mode: KioskMode; startBy: 'card' | 'button'; cameraService: 1 | 2 | 3 }> = [
  { mode: 'credit-reception', startBy: 'button', cameraService: 2 },
  { mode: 'redeem-giftcards', startBy: 'card', cameraService: 3 },
  { mode: 'top-up-giftcards', startBy: 'card', cameraService: 1 },
  { mode: 'pay-prepaid', startBy: 'button', cameraService: 2 },
  { mode: 'top-up-prepaid', startBy: 'card', cameraService: 3 },
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const GIFTCARD_CENTS = 1250;

/** Non-default session settings; the sandbox must store exactly these for every session. */
const SESSION_SETTINGS = {
  'session.scanner_type': 'hand_scanner',
  'session.enable_on_screen_keyboard': true,
  'session.facing_mode': 'environment',
  'session.enable_email_identification': true,
  'session.primary_identification_method': 'email',
  'session.camera_service': 1,
};

interface StoredSession {
  uuid: string;
  url: string;
  type: string;
  settings: Record<string, unknown>;
  shop: { uuid: string; name: string };
  contact: { uuid: string | null } | null;
}

/** The session settings every create sends; allow_multiple_giftcards goes only with redeem-giftcards. */
function sentByEveryMode(config: KioskConfig): Omit<KioskConfig['session'], 'allow_multiple_giftcards'> {
  const { allow_multiple_giftcards: _giftcardsOnly, ...common } = config.session;
  return common;
}

describe('kiosk modes: every mode starts its own portal session with the configured settings', () => {
  let kiosk: KioskUnderTest;
  let browser: Browser;
  let page: Page;
  let sanne: { uuid: string; card: string };

  beforeAll(async () => {
    [kiosk, browser] = await Promise.all([startKiosk(SESSION_SETTINGS), launchChromium()]);
    sanne = cardOf(kiosk.manifest, 'sanne.devries@example.nl');
    page = await openKiosk(browser, kiosk);
  });
  afterAll(async () => {
    await browser?.close();
    await kiosk?.host.stop();
  });

  /** Writes config.json as kioskctl would (mode last, so seeing the mode means seeing it all). */
  function configure(entries: Record<string, unknown>): KioskConfig {
    const store = new ConfigStore({ dataDir: kiosk.dataDir, logger: silentLogger });
    for (const [key, value] of Object.entries(entries)) store.set(key, value);
    return store.get();
  }

  async function storedSession(uuid: string): Promise<StoredSession> {
    return (await kiosk.platform.getPortalSession({ portal_session_uuid: uuid })).data as unknown as StoredSession;
  }

  /** The hosted page at the session's url, as the kiosk's frame loads it: its title and rows. */
  async function hostedPage(url: string) {
    const response = await fetch(url);
    expect(response.status).toBe(200);
    const html = await response.text();
    const rows = Object.fromEntries([...html.matchAll(/<dt>(.*?)<\/dt><dd>(.*?)<\/dd>/g)].map((match) => [match[1], match[2]]));
    return { title: /<h1>(.*?)<\/h1>/.exec(html)?.[1], rows };
  }

  /** What the QR code beside the frame says, read back from its pixels. */
  async function qrText(): Promise<string | undefined> {
    const image = await page.getByTestId('session-qr').evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(img, 0, 0);
      const { data, width, height } = context.getImageData(0, 0, canvas.width, canvas.height);
      // One base64 string, not an array of numbers: Playwright checks every element of an array it carries.
      let bytes = '';
      for (let at = 0; at < data.length; at += 0x8000) bytes += String.fromCharCode(...data.subarray(at, at + 0x8000));
      return { base64: btoa(bytes), width, height };
    });
    return jsQR(new Uint8ClampedArray(Buffer.from(image.base64, 'base64')), image.width, image.height)?.data;
  }

  /**
   * The portal screen for `mode`: a session the sandbox holds, of the mode's type, for this shop
   * and `contactUuid`, with exactly the configured settings; framed, and offered as a QR code.
   */
  async function expectPortal(mode: KioskMode, config: KioskConfig, contactUuid: string | null, extra: Record<string, unknown> = {}) {
    const portal = page.getByTestId('portal-screen');
    await portal.waitFor();
    const uuid = (await portal.getAttribute('data-session'))!;
    expect(uuid).toMatch(UUID);

    const stored = await storedSession(uuid);
    const shop = kiosk.manifest.shops[0]!;
    expect(stored.uuid).toBe(uuid);
    expect(stored.type).toBe(SESSION_TYPE[mode].type);
    expect(stored.settings).toEqual({ ...sentByEveryMode(config), ...extra });
    expect(stored.shop.uuid).toBe(shop.uuid);
    expect(stored.contact?.uuid ?? null).toBe(contactUuid);
    await expect(portal.locator('iframe').getAttribute('src')).resolves.toBe(stored.url);
    // As on the platform, the hosted pages have an origin of their own: the frame crosses origins.
    expect(new URL(stored.url).origin).not.toBe(new URL(kiosk.manifest.base_url).origin);

    const hosted = await hostedPage(stored.url);
    expect(hosted.title).toBe(SESSION_TYPE[mode].title);
    const settingRows = Object.fromEntries(Object.entries({ ...sentByEveryMode(config), ...extra }).map(([name, value]) => [name, String(value)]));
    expect(hosted.rows).toMatchObject({
      Shop: shop.name,
      Customer: contactUuid ? 'sanne.devries@example.nl' : 'Not identified yet',
      ...settingRows,
    });

    // The frame really shows it (the CSP lets the platform's page in), and the QR code leads there too.
    await expect
      .poll(() => page.frameLocator('[data-testid="portal-screen"] iframe').locator('h1').textContent(), { timeout: 5_000 })
      .toBe(SESSION_TYPE[mode].title);
    await page.getByTestId('session-qr').waitFor();
    await expect(qrText()).resolves.toBe(stored.url);
    return uuid;
  }

  async function finishPortal() {
    await page.getByTestId('portal-screen').getByRole('button', { name: /I.m done/ }).click();
    await page.getByTestId('attract-screen').waitFor();
    // The session is forgotten: a reload must not bring it back.
    await expect(page.evaluate(() => sessionStorage.getItem('kiosk.portalSession'))).resolves.toBeNull();
  }

  async function typeAmountOnKeypad(cents: number) {
    await page.getByTestId('amount-screen').waitFor();
    await checkShopperScreen(page, 'modes-redeem-giftcards-amount');
    await expect(page.getByLabel('Amount in euros').evaluate((field) => field === document.activeElement)).resolves.toBe(true);
    // The field is hidden behind its digits: they show the focus ring instead (#33 §13).
    await expect(page.getByTestId('amount').evaluate((shown) => getComputedStyle(shown).outlineStyle)).resolves.toBe('solid');
    const keypad = page.getByTestId('on-screen-keyboard');
    await expect(keypad.getAttribute('data-layout')).resolves.toBe('numeric');
    for (const digit of String(cents)) await keypad.getByRole('button', { name: digit, exact: true }).click();
    await expect(page.getByTestId('amount').textContent()).resolves.toBe('€12.50');
    await checkShopperScreen(page, 'modes-redeem-giftcards-keypad');
    await keypad.getByRole('button', { name: 'Done', exact: true }).click();
  }

  /** regular and vouchers: the kiosk's own screens; the visit's session tags it in the log. */
  async function nativeVisit(mode: 'regular' | 'vouchers', config: KioskConfig) {
    const attract = page.getByTestId('attract-screen');
    await expect(attract.getByRole('button', { name: START_LABEL[mode] }).count()).resolves.toBe(0);
    await checkShopperScreen(page, `modes-${mode}-attract`);
    const logged = () => kioskEvents(kiosk.dataDir, 'portal.session_created');
    const before = logged().length;

    await scannerBurst(page, sanne.card);
    await page.getByTestId('home-screen').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('s•••@example.nl');
    await checkShopperScreen(page, `modes-${mode}-home`);

    await visitSessionLogged(kiosk.dataDir, before);
    const tagged = logged().slice(before);
    expect(tagged).toHaveLength(1);
    expect(tagged[0]).toMatchObject({ mode, portalSession: expect.stringMatching(UUID) });
    const visitSession = await storedSession(tagged[0]!.portalSession as string);
    expect(visitSession.type).toBe(SESSION_TYPE[mode].type);
    expect(visitSession.contact?.uuid).toBe(sanne.uuid);
    expect(visitSession.settings).toEqual(sentByEveryMode(config));

    // Home has a tile per mode, the native one too: its hosted page, a second session for Sanne.
    await page.getByTestId('service-tiles').getByRole('button', { name: START_LABEL[mode] }).click();
    const hosted = await expectPortal(mode, config, sanne.uuid);
    expect(hosted).not.toBe(visitSession.uuid);
    await checkShopperScreen(page, `modes-${mode}-portal`);
    await finishPortal();
  }

  it('regular: a card opens home and tags the visit with a default session for the shopper', async () => {
    const config = configure({});
    expect(config.kiosk.modes).toEqual(['regular']);
    await nativeVisit('regular', config);
  });

  for (const { mode, startBy, cameraService } of HOSTED) {
    it(`${mode}: the start button on attract, then the hosted page (started by ${startBy})`, async () => {
      const config = configure({ 'session.camera_service': cameraService, 'kiosk.modes': [mode] });
      const start = page.getByTestId('attract-screen').getByRole('button', { name: START_LABEL[mode], exact: true });
      await start.waitFor();
      await checkShopperScreen(page, `modes-${mode}-attract`);

      if (startBy === 'card') await scannerBurst(page, sanne.card);
      else await start.click();
      const giftcard = mode === 'redeem-giftcards';
      if (giftcard) await typeAmountOnKeypad(GIFTCARD_CENTS);

      const extra = giftcard ? { amount_in_cents: GIFTCARD_CENTS, allow_multiple_giftcards: true } : {};
      await expectPortal(mode, config, startBy === 'card' ? sanne.uuid : null, extra);
      await checkShopperScreen(page, `modes-${mode}-portal`);
      await finishPortal();
    });
  }

  it('vouchers: back on the kiosk\'s own screens, with a vouchers session for the visit', async () => {
    const config = configure({ 'session.camera_service': 2, 'kiosk.modes': ['vouchers'] });
    // The last hosted mode's button goes away once the page has the new settings.
    await page.getByRole('button', { name: START_LABEL['top-up-prepaid'] }).waitFor({ state: 'detached' });
    await nativeVisit('vouchers', config);
  });

  it('a portal page on an origin outside portal.allowedOrigins is refused with a notice, never framed, and logged', async () => {
    configure({ 'kiosk.modes': ['credit-reception'], 'portal.allowedOrigins': ['https://portal.example'] });
    const start = page.getByTestId('attract-screen').getByRole('button', { name: START_LABEL['credit-reception'], exact: true });
    await start.click();
    await expect
      .poll(() => page.getByTestId('problem').textContent())
      .toBe('This service can’t be shown on this kiosk. Please ask a member of staff.');
    await expect(page.getByTestId('portal-screen').count()).resolves.toBe(0);
    await expect(page.locator('iframe').count()).resolves.toBe(0);
    expect(kioskEvents(kiosk.dataDir, 'portal.page_refused')).not.toHaveLength(0);
    await checkShopperScreen(page, 'modes-portal-refused');
    configure({ 'portal.allowedOrigins': [], 'kiosk.modes': ['regular'] });
  });

  it('several modes on a native kiosk: home has a tile each, in order, and each tile starts a session of its own mode', async () => {
    const config = configure({ 'kiosk.modes': ['regular', 'credit-reception', 'pay-prepaid'] });
    // The last test's hosted start button goes once the page has the new settings: a card now opens home.
    await page.getByTestId('attract-screen').getByRole('button', { name: START_LABEL['credit-reception'] }).waitFor({ state: 'detached' });
    const logged = () => kioskEvents(kiosk.dataDir, 'portal.session_created');
    for (const mode of ['credit-reception', 'pay-prepaid'] as const) {
      const before = logged().length;
      await scannerBurst(page, sanne.card);
      const tiles = page.getByTestId('home-screen').getByTestId('service-tiles');
      // A tile per mode, in the configured order.
      await tiles.waitFor();
      await expect.poll(() => tiles.getByRole('button').allTextContents(), { timeout: 5_000 }).toEqual([
        expect.stringContaining(START_LABEL.regular),
        expect.stringContaining(START_LABEL['credit-reception']),
        expect.stringContaining(START_LABEL['pay-prepaid']),
      ]);
      if (mode === 'credit-reception') await checkShopperScreen(page, 'modes-several-home');
      // The visit itself is tagged by its first native mode.
      await visitSessionLogged(kiosk.dataDir, before);
      expect(logged().slice(before)).toMatchObject([{ mode: 'regular' }]);

      await tiles.getByRole('button', { name: START_LABEL[mode] }).click();
      await expectPortal(mode, config, sanne.uuid);
      expect(logged().slice(before).map((line) => line.mode)).toEqual(['regular', mode]);
      await finishPortal();
    }
  });

  it('several hosted modes and no native one: attract has a start button each, in order; redeem-giftcards still asks the amount', async () => {
    const config = configure({ 'kiosk.modes': ['credit-reception', 'redeem-giftcards'] });
    const actions = page.getByTestId('attract-screen').getByRole('button', { name: /Collect credits|Pay with a giftcard/ });
    await expect.poll(() => actions.allTextContents(), { timeout: 5_000 }).toEqual([START_LABEL['credit-reception'], START_LABEL['redeem-giftcards']]);
    await checkShopperScreen(page, 'modes-several-attract');

    await actions.getByText(START_LABEL['redeem-giftcards'], { exact: true }).click();
    await typeAmountOnKeypad(GIFTCARD_CENTS);
    await expectPortal('redeem-giftcards', config, null, { amount_in_cents: GIFTCARD_CENTS, allow_multiple_giftcards: true });
    await finishPortal();

    await actions.getByText(START_LABEL['credit-reception'], { exact: true }).click();
    await expectPortal('credit-reception', config, null);
    await finishPortal();
    configure({ 'kiosk.modes': ['regular'] });
  });

  it('main starts no session of a mode the kiosk does not offer, whatever the page asks', async () => {
    configure({ 'kiosk.modes': ['regular', 'credit-reception'] });
    const refused = await page.evaluate(() => window.kiosk.startPortalSession({ mode: 'top-up-prepaid' }));
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_payload', message: expect.stringContaining('does not offer top-up-prepaid') } });
  });
});
