import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoutedOperationId } from './routes.std.ts';
import { escapeHtml } from './session-page.std.ts';
import { expectError, TestSandbox } from './testing.test-support.ts';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await TestSandbox.start();
});
afterAll(() => sandbox.stop());

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

const VARIANTS: Array<[RoutedOperationId, string]> = [
  ['createPortalSession', 'default'],
  ['createCreditReceptionPortalSession', 'credit_reception'],
  ['createTopUpGiftcardsPortalSession', 'top_up_giftcards'],
  ['createPayPrepaidPortalSession', 'pay_prepaid'],
  ['createTopUpPrepaidPortalSession', 'top_up_prepaid'],
  ['createVoucherPortalSession', 'vouchers'],
];

const DEFAULT_SETTINGS = {
  scanner_type: 'camera',
  enable_email_identification: false,
  enable_registration: false,
  enable_on_screen_keyboard: false,
  camera_service: 3,
  facing_mode: 'user',
  primary_identification_method: 'identifier',
};

describe('creating portal sessions', () => {
  it.each(VARIANTS)('%s answers the session with its url, shop, no contact and empty events', async (id, type) => {
    const reply = await sandbox.call(id, { body: { shop_uuid: sandbox.shopUuid } });
    expect(reply.status).toBe(201);
    const session = reply.body.data;
    const origin = new URL(sandbox.baseUrl).origin;
    expect(session.url).toBe(`${origin}/portal-sessions?uuid=${session.uuid}`);
    expect(session).toMatchObject({ contact: null, events: [], type, settings: DEFAULT_SETTINGS });
    expect(session.shop).toEqual({ ...sandbox.manifest.shops[0] });
    expect(reply.body.meta).toEqual([]);
  });

  it('accepts the API key as well as the access token, but not the personal access token', async () => {
    const body = { shop_uuid: sandbox.shopUuid };
    expect((await sandbox.call('createPortalSession', { body, as: 'api_key' })).status).toBe(201);
    expectError(await sandbox.call('createPortalSession', { body, as: 'personal_access_token' }), 401, 401);
  });

  it('stores every setting and the contact, and Get answers them without events', async () => {
    const settings = {
      scanner_type: 'hand_scanner',
      enable_email_identification: true,
      enable_registration: true,
      enable_on_screen_keyboard: true,
      camera_service: 1,
      facing_mode: 'environment',
      primary_identification_method: 'email',
    };
    const contact = sandbox.contactUuid('olivia');
    const made = await sandbox.call('createVoucherPortalSession', {
      body: { shop_uuid: sandbox.shopUuid, contact_uuid: contact, ...settings },
    });
    expect(made.body.data.contact).toEqual({ uuid: contact });
    const got = await sandbox.call('getPortalSession', { params: { portal_session_uuid: made.body.data.uuid } });
    expect(got.status).toBe(200);
    expect(got.body.data).not.toHaveProperty('events');
    expect(got.body.data).toMatchObject({ uuid: made.body.data.uuid, type: 'vouchers', settings, contact: { uuid: contact } });
    expect(got.body.data.created_at).toBe(made.body.data.created_at);
  });

  it('takes an amount and the multiple-giftcards switch for redeem-giftcards only', async () => {
    const redeem = (body: Record<string, unknown>) =>
      sandbox.call('createRedeemGiftcardsPortalSession', { body: { shop_uuid: sandbox.shopUuid, ...body } });
    const made = await redeem({ amount_in_cents: 1250 });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({
      type: 'redeem_giftcards',
      settings: { ...DEFAULT_SETTINGS, amount_in_cents: 1250, allow_multiple_giftcards: true },
    });
    expect((await redeem({ amount_in_cents: 1, allow_multiple_giftcards: false })).body.data.settings).toMatchObject({
      allow_multiple_giftcards: false,
    });
    for (const amount_in_cents of [undefined, 0, -5, 1.5, '100']) {
      expectError(await redeem({ amount_in_cents }), 400, 1003, 'amount_in_cents');
    }
    expectError(await redeem({ amount_in_cents: 100, allow_multiple_giftcards: 'yes' }), 400, 1003, 'allow_multiple_giftcards');
    const plain = await sandbox.call('createPortalSession', { body: { shop_uuid: sandbox.shopUuid, amount_in_cents: 100 } });
    expectError(plain, 400, 1003, 'amount_in_cents');
  });

  it('validates every field', async () => {
    const invalid = async (body: Record<string, unknown>, field: string) =>
      expectError(await sandbox.call('createPortalSession', { body: { shop_uuid: sandbox.shopUuid, ...body } }), 400, 1003, field);
    await invalid({ shop_uuid: undefined }, 'shop_uuid');
    await invalid({ shop_uuid: 'amsterdam' }, 'shop_uuid');
    await invalid({ contact_uuid: 'sanne' }, 'contact_uuid');
    await invalid({ scanner_type: 'laser' }, 'scanner_type');
    await invalid({ enable_email_identification: 'true' }, 'enable_email_identification');
    await invalid({ enable_registration: 1 }, 'enable_registration');
    await invalid({ enable_on_screen_keyboard: null }, 'enable_on_screen_keyboard');
    await invalid({ camera_service: 4 }, 'camera_service');
    await invalid({ camera_service: '3' }, 'camera_service');
    await invalid({ facing_mode: 'left' }, 'facing_mode');
    await invalid({ primary_identification_method: 'phone' }, 'primary_identification_method');
  });

  it('refuses an unknown shop (1008) or contact (55031)', async () => {
    expectError(await sandbox.call('createPortalSession', { body: { shop_uuid: UNKNOWN } }), 404, 1008);
    expectError(
      await sandbox.call('createPortalSession', { body: { shop_uuid: sandbox.shopUuid, contact_uuid: UNKNOWN } }),
      404,
      55031,
    );
  });

  it('answers 404 for an unknown session', async () => {
    expectError(await sandbox.call('getPortalSession', { params: { portal_session_uuid: UNKNOWN } }), 404, 404);
    expectError(await sandbox.call('getPortalSession', { params: { portal_session_uuid: 'x' } }), 400, 1003, 'portal_session_uuid');
  });
});

describe('the hosted session page', () => {
  it('shows type, shop and contact, escaped, under a strict CSP with nothing external', async () => {
    const email = "o'brien@example.ie";
    const contact = (await sandbox.call('createContact', { body: { email } })).body.data.uuid;
    const made = await sandbox.call('createPayPrepaidPortalSession', {
      body: { shop_uuid: sandbox.shopUuid, contact_uuid: contact },
    });
    const response = await fetch(made.body.data.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await response.text();
    expect(html).toContain('Pay with prepaid balance');
    expect(html).toContain('Amsterdam Centraal');
    expect(html).toContain('o&#39;brien@example.ie');
    expect(html).not.toContain(email);
    expect(html).not.toMatch(/<script|\ssrc=|\shref=|url\(/i);
  });

  it('escapes every character that could open markup', () => {
    expect(escapeHtml(`<script>alert("x" & 'y')</script>`)).toBe(
      '&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;',
    );
  });

  it('needs no credential and answers 404 for an unknown session', async () => {
    const origin = new URL(sandbox.baseUrl).origin;
    expect((await fetch(`${origin}/portal-sessions?uuid=${UNKNOWN}`)).status).toBe(404);
    expect((await fetch(`${origin}/portal-sessions`)).status).toBe(404);
  });
});
