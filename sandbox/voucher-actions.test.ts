import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, TestSandbox } from './testing.test-support.ts';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await TestSandbox.start();
});
afterAll(() => sandbox.stop());

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

async function newVoucher(body: Record<string, unknown> = {}) {
  const reply = await sandbox.call('createVoucher', {
    body: { promotion_uuid: sandbox.manifest.promotions[0]?.uuid, ...body },
  });
  expect(reply.status).toBe(201);
  return reply.body.data as { uuid: string; code: string };
}

const lock = (uuid: string) => sandbox.call('lockVoucher', { params: { voucher_uuid: uuid } });
const release = (uuid: string, body: unknown) => sandbox.call('releaseVoucher', { params: { voucher_uuid: uuid }, body });
const redeem = (body: Record<string, unknown>) =>
  sandbox.call('redeemVoucher', { body: { shop_uuid: sandbox.shopUuid, ...body } });
const statusOf = async (code: string) =>
  (await sandbox.call('findVoucher', { query: { code } })).body.data.status as string;

describe('Lock Voucher (ACTIVE → LOCKED)', () => {
  it('locks for exactly one hour with an unguessable release key', async () => {
    const voucher = await newVoucher();
    const reply = await lock(voucher.uuid);
    expect(reply.status).toBe(200);
    const { voucher: state, lock: held } = reply.body.data;
    expect(state).toEqual({ uuid: voucher.uuid, status: 'LOCKED' });
    expect(held.release_key.length).toBeGreaterThanOrEqual(16);
    expect(held.unlocked_at).toBeNull();
    expect(Date.parse(held.system_release_at) - Date.parse(held.locked_at)).toBe(60 * 60 * 1000);
    expect(await statusOf(voucher.code)).toBe('LOCKED');
    const other = (await lock((await newVoucher()).uuid)).body.data.lock.release_key;
    expect(other).not.toBe(held.release_key);
  });

  it('refuses vouchers that are not ACTIVE, each with its own code', async () => {
    const locked = await newVoucher();
    await lock(locked.uuid);
    expectError(await lock(locked.uuid), 409, 80017);
    expectError(await lock(sandbox.voucherUuid('KFR2D8WM')), 409, 80005);
    expectError(await lock(sandbox.voucherUuid('KFX4E9JC')), 409, 80006);
    expectError(await lock(sandbox.voucherUuid('KRT9C3LU')), 409, 80012);
    expectError(await lock(sandbox.voucherUuid('KRT4Q6ZF')), 409, 80014);
    expectError(await lock(UNKNOWN), 404, 80004);
  });

  it('lets exactly one of 50 concurrent locks win', async () => {
    const voucher = await newVoucher();
    const replies = await Promise.all(Array.from({ length: 50 }, () => lock(voucher.uuid)));
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1);
    for (const reply of replies.filter((candidate) => candidate.status !== 200)) expectError(reply, 409, 80017);
  });
});

describe('Release Voucher (LOCKED → ACTIVE)', () => {
  it('releases with the right key: unlocked_at set, system_release_at null', async () => {
    const voucher = await newVoucher();
    const key = (await lock(voucher.uuid)).body.data.lock.release_key;
    const reply = await release(voucher.uuid, { release_key: key });
    expect(reply.status).toBe(200);
    expect(reply.body.data.voucher.status).toBe('ACTIVE');
    expect(reply.body.data.lock).toMatchObject({ release_key: key, system_release_at: null });
    expect(reply.body.data.lock.unlocked_at).toEqual(expect.any(String));
    expect(await statusOf(voucher.code)).toBe('ACTIVE');
    expectError(await release(voucher.uuid, { release_key: key }), 409, 409);
  });

  it('needs the key (400) and refuses a wrong one (409 80017), staying LOCKED', async () => {
    const voucher = await newVoucher();
    await lock(voucher.uuid);
    expectError(await release(voucher.uuid, {}), 400, 1003, 'release_key');
    expectError(await release(voucher.uuid, { release_key: 'guess-guess-guess' }), 409, 80017);
    expect(await statusOf(voucher.code)).toBe('LOCKED');
    expectError(await release(UNKNOWN, { release_key: 'x' }), 404, 80004);
  });
});

describe('Redeem Voucher', () => {
  it('redeems a single-use voucher with a contact (ACTIVE → REDEEMED) once', async () => {
    const sanne = sandbox.contactUuid('sanne');
    const voucher = await newVoucher({ contact_uuid: sanne });
    const reply = await redeem({ code: voucher.code });
    expect(reply.status).toBe(200);
    const redeemed = reply.body.data;
    expect(redeemed).toMatchObject({
      status: 'REDEEMED',
      is_redeemed: true,
      times_redeemed: 1,
      redemptions_remaining: 0,
      total_redemptions_allowed: 1,
    });
    expect(redeemed.redeemed_at).toBe(redeemed.voucher_redemption.created_at);
    expect(redeemed.voucher_redemption.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expectError(await redeem({ code: voucher.code }), 409, 80005);
  });

  it('needs contact_uuid for a voucher without contact, and records it on the redemption only', async () => {
    const voucher = await newVoucher();
    expectError(await redeem({ code: voucher.code }), 400, 1003, 'contact_uuid');
    const reply = await redeem({ code: voucher.code, contact_uuid: sandbox.contactUuid('emma') });
    expect(reply.body.data).toMatchObject({ status: 'REDEEMED', contact: null });
  });

  it('checks a given contact against the voucher contact', async () => {
    const voucher = await newVoucher({ contact_uuid: sandbox.contactUuid('daan') });
    expectError(await redeem({ code: voucher.code, contact_uuid: sandbox.contactUuid('emma') }), 409, 409);
    const reply = await redeem({ code: voucher.code, contact_uuid: sandbox.contactUuid('daan') });
    expect(reply.body.data.status).toBe('REDEEMED');
  });

  it('redeems a LOCKED voucher only with its release key, releasing the lock (LOCKED → REDEEMED)', async () => {
    const voucher = await newVoucher({ contact_uuid: sandbox.contactUuid('olivia') });
    const key = (await lock(voucher.uuid)).body.data.lock.release_key;
    expectError(await redeem({ code: voucher.code }), 409, 80017);
    expectError(await redeem({ code: voucher.code, release_key: `${key}x` }), 409, 80017);
    const reply = await redeem({ code: voucher.code, release_key: key });
    expect(reply.body.data).toMatchObject({ status: 'REDEEMED', is_redeemed: true });
    expectError(await release(voucher.uuid, { release_key: key }), 409, 409);
  });

  it('refuses a release key for a voucher that is not locked', async () => {
    const voucher = await newVoucher({ contact_uuid: sandbox.contactUuid('olivia') });
    expectError(await redeem({ code: voucher.code, release_key: 'not-locked-at-all' }), 409, 409);
    expect(await statusOf(voucher.code)).toBe('ACTIVE');
  });

  it('keeps a multi-use voucher ACTIVE until its last redemption', async () => {
    const voucher = await newVoucher({ contact_uuid: sandbox.contactUuid('james'), total_redemptions_allowed: 3 });
    const first = (await redeem({ code: voucher.code })).body.data;
    expect(first).toMatchObject({ status: 'ACTIVE', is_redeemed: true, times_redeemed: 1, redemptions_remaining: 2 });
    await redeem({ code: voucher.code });
    const last = (await redeem({ code: voucher.code })).body.data;
    expect(last).toMatchObject({ status: 'REDEEMED', times_redeemed: 3, redemptions_remaining: 0 });
    expect(last.redeemed_at).toBe(last.voucher_redemption.created_at);
    expectError(await redeem({ code: voucher.code }), 409, 80019);
  });

  it('refuses EXPIRED, DEACTIVATED and INACTIVE vouchers before looking at the contact', async () => {
    expectError(await redeem({ code: 'WLK5T2GR' }), 409, 80006);
    expectError(await redeem({ code: 'KFD7H5SE' }), 409, 80012);
    expectError(await redeem({ code: 'KRT4Q6ZF' }), 409, 80014);
  });

  it('validates input, then finds voucher, shop and contact', async () => {
    expectError(await sandbox.call('redeemVoucher', { body: {} }), 400, 1003, 'code');
    expectError(await sandbox.call('redeemVoucher', { body: { code: 'KOFFIE24' } }), 400, 1003, 'shop_uuid');
    expectError(await redeem({ code: 'NOPE0000' }), 404, 80004);
    expectError(await redeem({ code: 'KF9R4TBZ', shop_uuid: UNKNOWN }), 404, 1008);
    expectError(await redeem({ code: 'KF9R4TBZ', contact_uuid: UNKNOWN }), 404, 55031);
    expect(await statusOf('KF9R4TBZ')).toBe('ACTIVE');
  });
});

describe('Check Voucher Validity', () => {
  const validity = (uuid: string, body: Record<string, unknown>, query: Record<string, string> = {}) =>
    sandbox.call('checkVoucherValidity', { params: { voucher_uuid: uuid }, body, query });

  it('says valid, with the voucher, when a redemption would succeed', async () => {
    const reply = await validity(sandbox.voucherUuid('KFQ7M2XA'), { shop_uuid: sandbox.shopUuid });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ data: { valid: true, reason: null, voucher: { code: 'KFQ7M2XA' } }, meta: [] });
  });

  it('takes shop_uuid and contact_uuid from the query as well, the body winning', async () => {
    const uuid = sandbox.voucherUuid('KRT10UTR');
    const fromQuery = await validity(uuid, {}, { shop_uuid: sandbox.shopUuid, contact_uuid: sandbox.contactUuid('emma') });
    expect(fromQuery.body.data.valid).toBe(true);
    expectError(await validity(uuid, { shop_uuid: UNKNOWN }, { shop_uuid: sandbox.shopUuid, contact_uuid: sandbox.contactUuid('emma') }), 404, 1008);
  });

  it('gives the code that would refuse the redemption now', async () => {
    const reason = async (code: string, body: Record<string, unknown> = {}) =>
      (await validity(sandbox.voucherUuid(code), { shop_uuid: sandbox.shopUuid, ...body })).body.data;
    expect(await reason('KFR2D8WM')).toMatchObject({ valid: false, reason: { code: 80005 } });
    expect(await reason('KFX4E9JC')).toMatchObject({ valid: false, reason: { code: 80006 } });
    expect(await reason('KRT9C3LU')).toMatchObject({ valid: false, reason: { code: 80012 } });
    expect(await reason('KFN3W8VK')).toMatchObject({ valid: false, reason: { code: 80014 } });
    expect(await reason('WELKOM01', { contact_uuid: sandbox.contactUuid('james') })).toMatchObject({
      valid: false,
      reason: { code: 409 },
    });
    const locked = await newVoucher({ contact_uuid: sandbox.contactUuid('sanne') });
    await lock(locked.uuid);
    const lockedAnswer = await validity(locked.uuid, { shop_uuid: sandbox.shopUuid });
    expect(lockedAnswer.body.data).toMatchObject({ valid: false, reason: { code: 80017 }, voucher: { status: 'LOCKED' } });
  });

  it('answers 400 without shop, or without contact for a voucher that has none; 404 for unknowns', async () => {
    expectError(await validity(sandbox.voucherUuid('KOFFIE24'), {}), 400, 1003, 'shop_uuid');
    expectError(await validity(sandbox.voucherUuid('KF9R4TBZ'), { shop_uuid: sandbox.shopUuid }), 400, 1003, 'contact_uuid');
    expectError(await validity(UNKNOWN, { shop_uuid: sandbox.shopUuid }), 404, 80004);
    expectError(await validity(sandbox.voucherUuid('KOFFIE24'), { shop_uuid: UNKNOWN }), 404, 1008);
    expectError(await validity(sandbox.voucherUuid('KOFFIE24'), { shop_uuid: sandbox.shopUuid, contact_uuid: UNKNOWN }), 404, 55031);
  });

  it('changes nothing', async () => {
    const uuid = sandbox.voucherUuid('KRT10AMS');
    await validity(uuid, { shop_uuid: sandbox.shopUuid });
    expect(await statusOf('KRT10AMS')).toBe('ACTIVE');
  });
});
