import { describe, expect, it } from 'vitest';
import { CreatePortalSessionBody } from '../../api/portal-sessions.std.ts';
import type { OperationInput } from '../../main/loyalty/client.node.ts';
import { clientOf, contractSuite, expectInvalid, expectRefused, lastStatus, sandboxCredentials } from './contract.test-support.ts';

/** The seven create variants and Get through the client, and the hosted page each session's url names. */

const suite = contractSuite();
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

const VARIANTS = [
  ['createPortalSession', 'default'],
  ['createCreditReceptionPortalSession', 'credit_reception'],
  ['createTopUpGiftcardsPortalSession', 'top_up_giftcards'],
  ['createPayPrepaidPortalSession', 'pay_prepaid'],
  ['createTopUpPrepaidPortalSession', 'top_up_prepaid'],
  ['createVoucherPortalSession', 'vouchers'],
] as const;

// The spec's defaults, which api/operations.test.ts pins in the schema.
const { shop_uuid: _shop, ...DEFAULT_SETTINGS } = CreatePortalSessionBody.parse({ shop_uuid: UNKNOWN });

const create = (input: Partial<OperationInput<'createPortalSession'>> = {}) =>
  suite.client.createPortalSession({ shop_uuid: suite.sandbox.shopUuid, ...input });

describe('creating portal sessions', () => {
  it.each(VARIANTS)('%s answers the session with its url, shop, no contact and empty events', async (id, type) => {
    const answer = await suite.client[id]({ shop_uuid: suite.sandbox.shopUuid });
    expect(lastStatus()).toBe(201);
    const origin = new URL(suite.sandbox.baseUrl).origin;
    expect(answer.data.url).toBe(`${origin}/portal-sessions?uuid=${answer.data.uuid}`);
    expect(answer.data).toMatchObject({ contact: null, events: [], type, settings: DEFAULT_SETTINGS });
    expect(answer.data.shop).toEqual({ ...suite.sandbox.manifest.shops[0] });
    expect(answer.meta).toEqual([]);
  });

  it('accepts the access token and the API key alike', async () => {
    const { accessToken, apiKey } = sandboxCredentials(suite.sandbox);
    for (const credentials of [{ accessToken }, { apiKey }]) {
      await clientOf(suite.sandbox, credentials).createPortalSession({ shop_uuid: suite.sandbox.shopUuid });
      expect(lastStatus()).toBe(201);
    }
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
    } as const;
    const contact = suite.sandbox.contactUuid('olivia');
    const made = await suite.client.createVoucherPortalSession({ shop_uuid: suite.sandbox.shopUuid, contact_uuid: contact, ...settings });
    expect(made.data.contact).toEqual({ uuid: contact });
    const got = await suite.client.getPortalSession({ portal_session_uuid: made.data.uuid });
    expect(lastStatus()).toBe(200);
    expect(got.data).not.toHaveProperty('events');
    expect(got.data).toMatchObject({ uuid: made.data.uuid, type: 'vouchers', settings, contact: { uuid: contact } });
    expect(got.data.created_at).toBe(made.data.created_at);
  });

  it('takes an amount and the multiple-giftcards switch for redeem-giftcards only', async () => {
    const redeem = (input: object) =>
      suite.loose.createRedeemGiftcardsPortalSession({ shop_uuid: suite.sandbox.shopUuid, ...input });
    const made = await redeem({ amount_in_cents: 1250 });
    expect(lastStatus()).toBe(201);
    expect(made.data).toMatchObject({
      type: 'redeem_giftcards',
      settings: { ...DEFAULT_SETTINGS, amount_in_cents: 1250, allow_multiple_giftcards: true },
    });
    expect((await redeem({ amount_in_cents: 1, allow_multiple_giftcards: false })).data.settings).toMatchObject({
      allow_multiple_giftcards: false,
    });
    for (const amount_in_cents of [undefined, 0, -5, 1.5, '100']) await expectInvalid(redeem({ amount_in_cents }), 'amount_in_cents');
    await expectInvalid(redeem({ amount_in_cents: 100, allow_multiple_giftcards: 'yes' }), 'allow_multiple_giftcards');
    await expectInvalid(suite.loose.createPortalSession({ shop_uuid: suite.sandbox.shopUuid, amount_in_cents: 100 }), 'amount_in_cents');
  });

  it('validates every field', async () => {
    const invalid = (input: object, field: string) =>
      expectInvalid(suite.loose.createPortalSession({ shop_uuid: suite.sandbox.shopUuid, ...input }), field);
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
    await expectRefused(create({ shop_uuid: UNKNOWN }), 'not_found', 404, 1008);
    await expectRefused(create({ contact_uuid: UNKNOWN }), 'not_found', 404, 55031);
  });

  it('answers 404 for an unknown session', async () => {
    await expectRefused(suite.client.getPortalSession({ portal_session_uuid: UNKNOWN }), 'not_found', 404, 404);
    await expectInvalid(suite.client.getPortalSession({ portal_session_uuid: 'x' }), 'portal_session_uuid');
  });
});

describe('the hosted session page', () => {
  it('shows type, shop and contact, escaped, under a strict CSP with nothing external', async () => {
    const email = "o'brien@example.ie";
    const contact = (await suite.client.createContact({ email })).data.uuid;
    const made = await suite.client.createPayPrepaidPortalSession({ shop_uuid: suite.sandbox.shopUuid, contact_uuid: contact });
    const response = await fetch(made.data.url);
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

  it('needs no credential and answers 404 for an unknown session', async () => {
    const origin = new URL(suite.sandbox.baseUrl).origin;
    expect((await fetch(`${origin}/portal-sessions?uuid=${UNKNOWN}`)).status).toBe(404);
    expect((await fetch(`${origin}/portal-sessions`)).status).toBe(404);
  });
});
