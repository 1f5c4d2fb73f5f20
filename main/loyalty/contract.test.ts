import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, type OperationId } from '../../api/operations.std.ts';
import { startSandbox, type SandboxManifest } from '../../sandbox/sandbox.node.ts';
import type { LogFields, Logger } from '../logging/logger.std.ts';
import { createLoyaltyClient, type LoyaltyClient } from './client.node.ts';
import { failure } from './loyalty-error.test-support.ts';

/**
 * Every operation through the client against the real sandbox: the client's requests pass the
 * sandbox's validation and the sandbox's answers pass the client's response schemas.
 */

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let dataDir: string;
let manifest: SandboxManifest;
let client: LoyaltyClient;
const called = new Set<string>();

/** Notes which operations were called, from the client's own log lines. */
function recordingLogger(context: LogFields = {}): Logger {
  const note = () => called.add(String(context.operation));
  return { debug: note, info: note, warn: note, error: note, child: (fields) => recordingLogger({ ...context, ...fields }) };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'loyalty-contract-'));
  sandbox = await startSandbox({ port: 0, dataDir });
  manifest = sandbox.manifest;
  const { api_key, access_token, personal_access_token } = manifest.credentials;
  client = createLoyaltyClient({
    baseUrl: sandbox.baseUrl,
    credentials: async () => ({ apiKey: api_key, accessToken: access_token, personalAccessToken: personal_access_token }),
    logger: recordingLogger(),
  });
});

afterAll(async () => {
  await sandbox?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const shop = () => manifest.shops[0]!.uuid;
const seeded = (status: string, linked: boolean) =>
  manifest.vouchers.find((voucher) => voucher.status === status && (voucher.contact_uuid !== null) === linked)!;

describe('portal sessions', () => {
  it('creates a session and gets it back', async () => {
    const created = await client.createPortalSession({ shop_uuid: shop(), enable_registration: true });
    expect(created.data.events).toEqual([]);
    expect(created.data.shop.uuid).toBe(shop());
    const fetched = await client.getPortalSession({ portal_session_uuid: created.data.uuid });
    expect(fetched.data.uuid).toBe(created.data.uuid);
    expect(new URL(fetched.data.url).searchParams.get('uuid')).toBe(created.data.uuid);
  });

  it.each([
    'createCreditReceptionPortalSession',
    'createTopUpGiftcardsPortalSession',
    'createPayPrepaidPortalSession',
    'createTopUpPrepaidPortalSession',
    'createVoucherPortalSession',
  ] as const)('creates with %s', async (id) => {
    const contact = manifest.contacts[0]!.uuid;
    const created = await client[id]({ shop_uuid: shop(), contact_uuid: contact, scanner_type: 'hand_scanner' });
    expect(created.data.contact?.uuid).toBe(contact);
  });

  it('creates a redeem-giftcards session with an amount, and refuses one without', async () => {
    const created = await client.createRedeemGiftcardsPortalSession({ shop_uuid: shop(), amount_in_cents: 1250 });
    expect(created.data.events).toEqual([]);
    const untyped = client.createRedeemGiftcardsPortalSession as (input: object) => Promise<unknown>;
    const error = await failure(untyped({ shop_uuid: shop() }));
    expect(error.kind).toBe('validation');
    expect(error.fieldErrors).toHaveProperty('amount_in_cents');
  });

  it('answers an unknown session with not_found', async () => {
    const error = await failure(client.getPortalSession({ portal_session_uuid: '00000000-0000-4000-8000-000000000000' }));
    expect(error.kind).toBe('not_found');
  });
});

describe('vouchers', () => {
  it('lists with pagination and filters', async () => {
    const page = await client.listVouchers({ limit: 3, page: 1 });
    expect(page.data).toHaveLength(3);
    expect(page.meta.total).toBeGreaterThanOrEqual(manifest.vouchers.length);
    const redeemed = await client.listVouchers({ status: 'REDEEMED' });
    expect(redeemed.data.length).toBeGreaterThan(0);
    expect(redeemed.data.every((voucher) => voucher.status === 'REDEEMED')).toBe(true);
  });

  it('finds by code, and answers an unknown code with not_found 80004', async () => {
    const { code } = seeded('ACTIVE', true);
    expect((await client.findVoucher({ code })).data.code).toBe(code);
    const error = await failure(client.findVoucher({ code: 'NO-SUCH-CODE' }));
    expect(error).toMatchObject({ kind: 'not_found', code: 80004 });
  });

  it('creates, deactivates and reactivates a voucher', async () => {
    const promotion = manifest.promotions[0]!.uuid;
    const created = await client.createVoucher({ promotion_uuid: promotion, custom_attributes: { table: 4 } });
    expect(created.data.status).toBe('ACTIVE');
    const deactivated = await client.updateVoucher({ voucher_uuid: created.data.uuid, status: 'DEACTIVATED' });
    expect(deactivated.data.status).toBe('DEACTIVATED');
    const reactivated = await client.updateVoucher({ voucher_uuid: created.data.uuid, status: 'ACTIVE' });
    expect(reactivated.data.status).toBe('ACTIVE');
  });

  it('refuses a duplicate code with conflict 80003', async () => {
    const promotion = manifest.promotions[0]!.uuid;
    const error = await failure(client.createVoucher({ promotion_uuid: promotion, code: seeded('ACTIVE', true).code }));
    expect(error).toMatchObject({ kind: 'conflict', code: 80003 });
  });

  it('checks validity with the personal access token', async () => {
    const usable = seeded('ACTIVE', true);
    const valid = await client.checkVoucherValidity({ voucher_uuid: usable.uuid, shop_uuid: shop() });
    expect(valid.data).toMatchObject({ valid: true, reason: null });
    const used = seeded('REDEEMED', true);
    const invalid = await client.checkVoucherValidity({ voucher_uuid: used.uuid, shop_uuid: shop() });
    expect(invalid.data.valid).toBe(false);
    expect(invalid.data.reason?.code).toBe(80005);
  });

  it('locks, releases, locks again and redeems with the release key, once', async () => {
    const voucher = seeded('ACTIVE', false);
    const contact = manifest.contacts[0]!.uuid;
    const locked = await client.lockVoucher({ voucher_uuid: voucher.uuid });
    expect(locked.data.voucher.status).toBe('LOCKED');
    expect((await failure(client.lockVoucher({ voucher_uuid: voucher.uuid }))).code).toBe(80017);
    const released = await client.releaseVoucher({ voucher_uuid: voucher.uuid, release_key: locked.data.lock.release_key });
    expect(released.data.voucher.status).toBe('ACTIVE');
    expect(released.data.lock.unlocked_at).not.toBeNull();

    const relocked = await client.lockVoucher({ voucher_uuid: voucher.uuid });
    const redeemed = await client.redeemVoucher({
      code: voucher.code,
      shop_uuid: shop(),
      contact_uuid: contact,
      release_key: relocked.data.lock.release_key,
    });
    expect(redeemed.data).toMatchObject({ status: 'REDEEMED', is_redeemed: true });
    expect(redeemed.data.voucher_redemption.uuid).toEqual(expect.any(String));

    const again = await failure(client.redeemVoucher({ code: voucher.code, shop_uuid: shop(), contact_uuid: contact }));
    expect(again).toMatchObject({ kind: 'conflict', code: 80005 });
  });
});

describe('reward attributes', () => {
  it('lists them and creates a select attribute', async () => {
    const listed = await client.listRewardAttributes();
    expect(listed.data.length).toBeGreaterThan(0);
    const created = await client.createRewardAttribute({
      name: 'cup',
      label: 'Cup',
      type: 'select',
      options: [{ label: 'Paper', value: 1 }],
    });
    expect(created).toMatchObject({ name: 'cup', data_type: 'select' });
    expect((await client.listRewardAttributes()).data.map((attribute) => attribute.name)).toContain('cup');
  });
});

describe('contacts', () => {
  it('identifies a shopper by card and by e-mail, and reads the balance', async () => {
    const [person] = manifest.contacts;
    const card = await client.findContactIdentifier({ contact_identifier_value: person!.identifiers[0]! });
    expect(card.data.contact?.uuid).toBe(person!.uuid);
    const byEmail = await client.findContactByEmail({ email: person!.email });
    expect(byEmail.data.uuid).toBe(person!.uuid);
    const balance = await client.getCreditBalance({ contact_uuid: person!.uuid });
    expect(Number.isInteger(balance.data.balance)).toBe(true);
  });

  it('tells an unknown card from an inactive one', async () => {
    const unknown = await failure(client.findContactIdentifier({ contact_identifier_value: '0000000000000' }));
    expect(unknown).toMatchObject({ kind: 'not_found', code: 60003 });
    const inactive = await failure(
      client.findContactIdentifier({ contact_identifier_value: manifest.inactive_identifiers[0]! }),
    );
    expect(inactive).toMatchObject({ kind: 'conflict', code: 60004 });
  });

  it('registers a contact, links a new card, and refuses both twice', async () => {
    const email = 'new.shopper@example.org';
    const contact = await client.createContact({ email });
    expect(contact.data.email).toBe(email);
    expect(await failure(client.createContact({ email }))).toMatchObject({ kind: 'conflict', code: 60005 });
    expect(await failure(client.findContactByEmail({ email: 'nobody@example.org' }))).toMatchObject({
      kind: 'not_found',
      code: 55031,
    });

    const card = '2710042999998';
    const linked = await client.createContactIdentifier({ contact_identifier_value: card, contact_uuid: contact.data.uuid });
    expect(linked.data.contact?.uuid).toBe(contact.data.uuid);
    const twice = await failure(
      client.createContactIdentifier({ contact_identifier_value: card, contact_uuid: contact.data.uuid }),
    );
    expect(twice).toMatchObject({ kind: 'conflict', code: 60006 });
  });
});

describe('the whole table', () => {
  it('refuses a wrong API key with auth', async () => {
    const wrong = createLoyaltyClient({ baseUrl: sandbox.baseUrl, credentials: async () => ({ apiKey: 'not-the-key' }) });
    expect((await failure(wrong.listRewardAttributes())).kind).toBe('auth');
  });

  it('has called every operation', () => {
    const all = Object.keys(operations) as OperationId[];
    expect(all.filter((id) => !called.has(id))).toEqual([]);
  });
});
