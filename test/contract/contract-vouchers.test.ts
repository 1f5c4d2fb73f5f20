import { describe, expect, it } from 'vitest';
import type { CreateVoucherBody, ListVouchersQuery, UpdateVoucherBody } from '../../api/vouchers.std.ts';
import { contractSuite, expectInvalid, expectRefused, lastStatus } from './contract.test-support.ts';

/** List, find, create and update through the client. */

const suite = contractSuite();
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const promotion = () => suite.sandbox.manifest.promotions[0]!.uuid;

async function created(input: Partial<CreateVoucherBody> = {}) {
  const answer = await suite.client.createVoucher({ promotion_uuid: promotion(), ...input });
  expect(lastStatus()).toBe(201);
  return answer.data;
}

const find = async (code: string) => (await suite.client.findVoucher({ code })).data;
const codes = (vouchers: ReadonlyArray<{ code: string }>) => vouchers.map((voucher) => voucher.code).sort();

describe('List Vouchers (seeded data only)', () => {
  const seeded = contractSuite();
  const list = (query: ListVouchersQuery = {}) => seeded.client.listVouchers(query);
  const listLoosely = (query: object) => seeded.loose.listVouchers(query);

  it('pages 30 by default, with per_page as a string and no redemption counters', async () => {
    const answer = await list();
    expect(answer.meta).toEqual({ current_page: 1, from: 1, last_page: 1, per_page: '30', to: 20, total: 20 });
    expect(answer.data).toHaveLength(20);
    expect(answer.data[0]).not.toHaveProperty('times_redeemed');
  });

  it('cuts pages by limit and page', async () => {
    const answer = await list({ limit: 7, page: 2 });
    expect(answer.meta).toEqual({ current_page: 2, from: 8, last_page: 3, per_page: '7', to: 14, total: 20 });
    expect(answer.data.map((voucher) => voucher.code)).toEqual(
      seeded.sandbox.manifest.vouchers.slice(7, 14).map((voucher) => voucher.code),
    );
  });

  it('answers limit 0 and pages past the end with empty data and null from/to', async () => {
    expect(await list({ limit: 0 })).toMatchObject({ data: [], meta: { from: null, to: null, per_page: '0', total: 20 } });
    const beyond = await list({ limit: 10, page: 3 });
    expect(beyond).toMatchObject({ data: [], meta: { current_page: 3, last_page: 2, from: null, to: null } });
  });

  it('accepts limit 500 and refuses 501, -1, fractions, text and page 0', async () => {
    expect((await list({ limit: 500 })).meta).toMatchObject({ per_page: '500', last_page: 1, to: 20 });
    for (const limit of [501, -1, 1.5, 'ten']) await expectInvalid(listLoosely({ limit }), 'limit');
    await expectInvalid(list({ page: 0 }), 'page');
  });

  it('reads limit and page only as decimal digits: empty, hex, exponent or padded values are 400', async () => {
    for (const value of ['', '0x10', '1e1', ' 5', '+5', '5.0']) {
      await expectInvalid(listLoosely({ limit: value }), 'limit');
      await expectInvalid(listLoosely({ page: value }), 'page');
    }
    expect((await listLoosely({ limit: '007', page: '02' })).meta).toMatchObject({ per_page: '7', current_page: 2 });
  });

  it('filters by status, contact and promotion', async () => {
    const byStatus = async (status: NonNullable<ListVouchersQuery['status']>) => codes((await list({ status })).data);
    expect(await byStatus('EXPIRED')).toEqual(['KFX4E9JC', 'WLK5T2GR']);
    expect(await byStatus('INACTIVE')).toEqual(['KFN3W8VK', 'KRT4Q6ZF']);
    expect(await byStatus('REDEEMED')).toEqual(['KFR2D8WM', 'KRT6B4YH']);
    expect(await byStatus('DEACTIVATED')).toEqual(['KFD7H5SE', 'KRT9C3LU']);
    expect(await byStatus('LOCKED')).toEqual([]);
    await expectInvalid(listLoosely({ status: 'USED' }), 'status');

    const mine = (await list({ contact_uuid: seeded.sandbox.contactUuid('sanne') })).data;
    expect(codes(mine)).toEqual(['KFR2D8WM', 'KOFFIE24', 'KOFFIE3X', 'KRT5XP2N']);
    const coffee = seeded.sandbox.manifest.promotions.find((candidate) => candidate.name === 'Gratis koffie')!.uuid;
    const coffeeVouchers = (await list({ promotion_uuid: coffee })).data;
    expect(coffeeVouchers.length).toBeGreaterThan(0);
    expect(coffeeVouchers.every((voucher) => voucher.promotion.uuid === coffee)).toBe(true);
    await expectInvalid(list({ contact_uuid: 'sanne' }), 'contact_uuid');
  });
});

describe('Find Voucher', () => {
  it('answers the voucher with its redemption counters', async () => {
    expect(await find('KRT3M9PA')).toMatchObject({
      code: 'KRT3M9PA',
      status: 'ACTIVE',
      is_redeemed: true,
      times_redeemed: 1,
      redemptions_remaining: 2,
      total_redemptions_allowed: 3,
    });
  });

  it('requires a code and answers 80004 for an unknown one', async () => {
    await expectInvalid(suite.loose.findVoucher({}), 'code');
    await expectInvalid(suite.client.findVoucher({ code: '' }), 'code');
    await expectRefused(suite.client.findVoucher({ code: 'NOPE0000' }), 'not_found', 404, 80004);
  });
});

describe('Create Voucher', () => {
  it('generates a code, links no contact and allows one redemption by default', async () => {
    const voucher = await created();
    expect(voucher).toMatchObject({ status: 'ACTIVE', contact: null, expiration_date: null, is_redeemed: false });
    expect(voucher.code).toMatch(/^[A-Z0-9]{8}$/);
    expect(voucher.activation_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(await find(voucher.code)).toMatchObject({ total_redemptions_allowed: 1, redemptions_remaining: 1 });
  });

  it('stores dates in UTC whatever offset they carry; no offset means UTC', async () => {
    const voucher = await created({
      activation_date: '2031-01-01T10:00:00+02:00',
      expiration_date: '2031-06-01T12:30:00',
    });
    expect(voucher).toMatchObject({
      activation_date: '2031-01-01T08:00:00+00:00',
      expiration_date: '2031-06-01T12:30:00+00:00',
      status: 'INACTIVE',
    });
    const zulu = await created({ expiration_date: '2032-02-29T23:59:59Z' });
    expect(zulu.expiration_date).toBe('2032-02-29T23:59:59+00:00');
  });

  it('reads EXPIRED once the expiration date has passed', async () => {
    const voucher = await created({ activation_date: '2020-01-01T00:00:00Z', expiration_date: '2021-01-01T00:00:00Z' });
    expect(voucher.status).toBe('EXPIRED');
  });

  it('links the contact, keeps the given code and redemption count, and takes attributes in both forms', async () => {
    const daan = suite.sandbox.contactUuid('daan');
    const voucher = await created({
      code: 'TESTCODE1',
      contact_uuid: daan,
      total_redemptions_allowed: 3,
      custom_attributes: { campaign: 'herfst', table: null },
    });
    expect(voucher).toMatchObject({
      code: 'TESTCODE1',
      contact: { uuid: daan, email: 'daan.jansen@example.nl' },
      attributes: { campaign: 'herfst', table: null },
    });
    expect(await find('TESTCODE1')).toMatchObject({ total_redemptions_allowed: 3, redemptions_remaining: 3 });
    const listed = await created({ custom_attributes: [{ name: 'channel', value: 'kiosk' }, { name: 'seats', value: 2 }] });
    expect(listed.attributes).toEqual({ channel: 'kiosk', seats: 2 });
  });

  it('refuses a code that exists (80003), an unknown promotion (80002) or contact (55031)', async () => {
    const create = suite.client.createVoucher;
    await expectRefused(create({ promotion_uuid: promotion(), code: 'KOFFIE24' }), 'conflict', 409, 80003);
    await expectRefused(create({ promotion_uuid: UNKNOWN }), 'not_found', 404, 80002);
    await expectRefused(create({ promotion_uuid: promotion(), contact_uuid: UNKNOWN }), 'not_found', 404, 55031);
  });

  it('validates before it looks anything up', async () => {
    const invalid = (input: object, field: string) => expectInvalid(suite.loose.createVoucher(input), field);
    await invalid({}, 'promotion_uuid');
    await invalid({ promotion_uuid: UNKNOWN, expiration_date: 'tomorrow' }, 'expiration_date');
    await invalid({ promotion_uuid: promotion(), expiration_date: '2030-02-30T00:00:00Z' }, 'expiration_date');
    await invalid({ promotion_uuid: promotion(), total_redemptions_allowed: 0 }, 'total_redemptions_allowed');
    await invalid({ promotion_uuid: promotion(), code: '' }, 'code');
    await invalid({ promotion_uuid: promotion(), colour: 'red' }, 'colour');
    await invalid(
      { promotion_uuid: promotion(), activation_date: '2031-01-02T00:00:00Z', expiration_date: '2031-01-01T00:00:00Z' },
      'expiration_date',
    );
  });
});

describe('Update Voucher', () => {
  const update = async (uuid: string, input: UpdateVoucherBody) =>
    (await suite.client.updateVoucher({ voucher_uuid: uuid, ...input })).data;
  const later = { status: 'ACTIVE', expiration_date: '2040-01-01T00:00:00Z' } as const;

  it('deactivates and reactivates, answering with the counters', async () => {
    const voucher = await created();
    const off = await update(voucher.uuid, { status: 'DEACTIVATED' });
    expect(lastStatus()).toBe(200);
    expect(off).toMatchObject({ status: 'DEACTIVATED', times_redeemed: 0, redemptions_remaining: 1 });
    expect((await update(voucher.uuid, { status: 'ACTIVE' })).status).toBe('ACTIVE');
  });

  it('accepts only ACTIVE or DEACTIVATED', async () => {
    const voucher = await created();
    await expectInvalid(suite.loose.updateVoucher({ voucher_uuid: voucher.uuid, status: 'REDEEMED' }), 'status');
    await expectInvalid(suite.loose.updateVoucher({ voucher_uuid: voucher.uuid }), 'status');
  });

  it('leaves a voucher whose activation is ahead reading INACTIVE', async () => {
    const voucher = await created({ activation_date: '2035-01-01T00:00:00Z' });
    expect((await update(voucher.uuid, { status: 'ACTIVE' })).status).toBe('INACTIVE');
  });

  it('moves the expiration date only of ACTIVE and INACTIVE vouchers', async () => {
    const active = await created();
    const moved = await update(active.uuid, { status: 'ACTIVE', expiration_date: '2040-01-01T00:00:00+01:00' });
    expect(moved.expiration_date).toBe('2039-12-31T23:00:00+00:00');
    const inactive = await created({ activation_date: '2035-01-01T00:00:00Z' });
    const stillInactive = await update(inactive.uuid, { status: 'ACTIVE', expiration_date: '2036-01-01T00:00:00Z' });
    expect(stillInactive).toMatchObject({ status: 'INACTIVE', expiration_date: '2036-01-01T00:00:00+00:00' });

    await expectRefused(update(suite.sandbox.voucherUuid('KRT9C3LU'), later), 'conflict', 409, 80012);
    await expectRefused(update(suite.sandbox.voucherUuid('KFX4E9JC'), later), 'conflict', 409, 80006);
    await expectRefused(update(suite.sandbox.voucherUuid('KFR2D8WM'), later), 'conflict', 409, 80005);
    // The status before the update decides: reactivating in the same request does not help.
    const deactivated = await created();
    await update(deactivated.uuid, { status: 'DEACTIVATED' });
    await expectRefused(update(deactivated.uuid, later), 'conflict', 409, 80012);
  });

  it('ends the lock of a LOCKED voucher whatever status it sets: the key no longer works', async () => {
    for (const status of ['DEACTIVATED', 'ACTIVE'] as const) {
      const voucher = await created();
      const { release_key } = (await suite.client.lockVoucher({ voucher_uuid: voucher.uuid })).data.lock;
      expect((await update(voucher.uuid, { status })).status).toBe(status);
      await expectRefused(suite.client.releaseVoucher({ voucher_uuid: voucher.uuid, release_key }), 'conflict', 409, 409);
    }
  });

  it('refuses a new expiration date for a LOCKED voucher (80017), which stays locked', async () => {
    const voucher = await created();
    const { release_key } = (await suite.client.lockVoucher({ voucher_uuid: voucher.uuid })).data.lock;
    await expectRefused(update(voucher.uuid, later), 'conflict', 409, 80017);
    expect((await find(voucher.code)).status).toBe('LOCKED');
    await suite.client.releaseVoucher({ voucher_uuid: voucher.uuid, release_key });
  });

  it('keeps a voucher with no redemptions left REDEEMED, with its redemptions, whatever status it sets', async () => {
    const voucher = await created({ contact_uuid: suite.sandbox.contactUuid('emma') });
    await suite.client.redeemVoucher({ code: voucher.code, shop_uuid: suite.sandbox.shopUuid });
    for (const status of ['DEACTIVATED', 'ACTIVE'] as const) {
      const answer = await update(voucher.uuid, { status, custom_attributes: { note: status } });
      expect(answer).toMatchObject({ status: 'REDEEMED', times_redeemed: 1, redemptions_remaining: 0, attributes: { note: status } });
    }
    const again = suite.client.redeemVoucher({ code: voucher.code, shop_uuid: suite.sandbox.shopUuid });
    await expectRefused(again, 'conflict', 409, 80005);
  });

  it('refuses an unknown voucher (80004) and a malformed uuid', async () => {
    await expectRefused(update(UNKNOWN, { status: 'ACTIVE' }), 'not_found', 404, 80004);
    await expectInvalid(update('not-a-uuid', { status: 'ACTIVE' }), 'voucher_uuid');
  });

  it('merges custom attributes given as an object or as name/value pairs', async () => {
    const voucher = await created({ custom_attributes: { campaign: 'lente', table: '4' } });
    await update(voucher.uuid, { status: 'ACTIVE', custom_attributes: { table: '7', guests: 2 } });
    const merged = await update(voucher.uuid, { status: 'ACTIVE', custom_attributes: [{ name: 'note', value: null }] });
    expect(merged.attributes).toEqual({ campaign: 'lente', table: '7', guests: 2, note: null });
  });
});
