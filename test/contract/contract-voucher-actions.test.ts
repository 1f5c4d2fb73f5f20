import { describe, expect, it } from 'vitest';
import type { CreateVoucherBody, RedeemVoucherBody } from '../../api/vouchers.std.ts';
import { contractSuite, expectInvalid, expectRefused, lastStatus } from './contract.test-support.ts';

/** Using a voucher through the client: the rows of the spec's state table, and validity. */

const suite = contractSuite();
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

async function newVoucher(input: Partial<CreateVoucherBody> = {}) {
  const promotion_uuid = suite.sandbox.manifest.promotions[0]!.uuid;
  return (await suite.client.createVoucher({ promotion_uuid, ...input })).data;
}

const contact = (firstName: string) => suite.sandbox.contactUuid(firstName);
const lock = (uuid: string) => suite.client.lockVoucher({ voucher_uuid: uuid });
const keyOf = async (uuid: string) => (await lock(uuid)).data.lock.release_key;
const release = (uuid: string, release_key: string) => suite.client.releaseVoucher({ voucher_uuid: uuid, release_key });
const redeem = (input: Omit<RedeemVoucherBody, 'shop_uuid'> & { shop_uuid?: string }) =>
  suite.client.redeemVoucher({ shop_uuid: suite.sandbox.shopUuid, ...input });
const redeemed = async (input: Parameters<typeof redeem>[0]) => (await redeem(input)).data;
const statusOf = async (code: string) => (await suite.client.findVoucher({ code })).data.status;

describe('Lock Voucher (ACTIVE → LOCKED)', () => {
  it('locks for exactly one hour with an unguessable release key', async () => {
    const voucher = await newVoucher();
    const { voucher: state, lock: held } = (await lock(voucher.uuid)).data;
    expect(lastStatus()).toBe(200);
    expect(state).toEqual({ uuid: voucher.uuid, status: 'LOCKED' });
    expect(held.release_key.length).toBeGreaterThanOrEqual(16);
    expect(held.unlocked_at).toBeNull();
    expect(Date.parse(held.system_release_at!) - Date.parse(held.locked_at)).toBe(60 * 60 * 1000);
    expect(await statusOf(voucher.code)).toBe('LOCKED');
    expect(await keyOf((await newVoucher()).uuid)).not.toBe(held.release_key);
  });

  it('refuses vouchers that are not ACTIVE, each with its own code', async () => {
    const locked = await newVoucher();
    await lock(locked.uuid);
    await expectRefused(lock(locked.uuid), 'conflict', 409, 80017);
    await expectRefused(lock(suite.sandbox.voucherUuid('KFR2D8WM')), 'conflict', 409, 80005);
    await expectRefused(lock(suite.sandbox.voucherUuid('KFX4E9JC')), 'conflict', 409, 80006);
    await expectRefused(lock(suite.sandbox.voucherUuid('KRT9C3LU')), 'conflict', 409, 80012);
    await expectRefused(lock(suite.sandbox.voucherUuid('KRT4Q6ZF')), 'conflict', 409, 80014);
    await expectRefused(lock(UNKNOWN), 'not_found', 404, 80004);
  });

  it('lets exactly one of 50 concurrent locks win', async () => {
    const voucher = await newVoucher();
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => lock(voucher.uuid)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const refusals = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    for (const refusal of refusals) expect(refusal).toMatchObject({ kind: 'conflict', status: 409, code: 80017 });
  });
});

describe('Release Voucher (LOCKED → ACTIVE)', () => {
  it('releases with the right key: unlocked_at set, system_release_at null', async () => {
    const voucher = await newVoucher();
    const key = await keyOf(voucher.uuid);
    const { data } = await release(voucher.uuid, key);
    expect(lastStatus()).toBe(200);
    expect(data.voucher.status).toBe('ACTIVE');
    expect(data.lock).toMatchObject({ release_key: key, system_release_at: null });
    expect(data.lock.unlocked_at).toEqual(expect.any(String));
    expect(await statusOf(voucher.code)).toBe('ACTIVE');
    await expectRefused(release(voucher.uuid, key), 'conflict', 409, 409);
  });

  it('needs the key (400) and refuses a wrong one (409 80017), staying LOCKED', async () => {
    const voucher = await newVoucher();
    await lock(voucher.uuid);
    await expectInvalid(suite.loose.releaseVoucher({ voucher_uuid: voucher.uuid }), 'release_key');
    await expectRefused(release(voucher.uuid, 'guess-guess-guess'), 'conflict', 409, 80017);
    expect(await statusOf(voucher.code)).toBe('LOCKED');
    await expectRefused(release(UNKNOWN, 'x'), 'not_found', 404, 80004);
  });
});

describe('Redeem Voucher', () => {
  it('redeems a single-use voucher with a contact (ACTIVE → REDEEMED) once', async () => {
    const voucher = await newVoucher({ contact_uuid: contact('sanne') });
    const answer = await redeemed({ code: voucher.code });
    expect(lastStatus()).toBe(200);
    expect(answer).toMatchObject({
      status: 'REDEEMED',
      is_redeemed: true,
      times_redeemed: 1,
      redemptions_remaining: 0,
      total_redemptions_allowed: 1,
    });
    expect(answer.redeemed_at).toBe(answer.voucher_redemption.created_at);
    expect(answer.voucher_redemption.uuid).toMatch(/^[0-9a-f-]{36}$/);
    await expectRefused(redeem({ code: voucher.code }), 'conflict', 409, 80005);
  });

  it('needs contact_uuid for a voucher without contact, and records it on the redemption only', async () => {
    const voucher = await newVoucher();
    await expectInvalid(redeem({ code: voucher.code }), 'contact_uuid');
    const answer = await redeemed({ code: voucher.code, contact_uuid: contact('emma') });
    expect(answer).toMatchObject({ status: 'REDEEMED', contact: null });
    const stored = (await suite.sandbox.storedState()).vouchers.find((candidate) => candidate.uuid === voucher.uuid);
    expect(stored).toMatchObject({ contact_uuid: null, redemptions: [{ contact_uuid: contact('emma') }] });
  });

  it('checks a given contact against the voucher contact', async () => {
    const voucher = await newVoucher({ contact_uuid: contact('daan') });
    await expectRefused(redeem({ code: voucher.code, contact_uuid: contact('emma') }), 'conflict', 409, 409);
    expect((await redeemed({ code: voucher.code, contact_uuid: contact('daan') })).status).toBe('REDEEMED');
  });

  it('redeems a LOCKED voucher only with its release key, releasing the lock (LOCKED → REDEEMED)', async () => {
    const voucher = await newVoucher({ contact_uuid: contact('olivia') });
    const key = await keyOf(voucher.uuid);
    await expectRefused(redeem({ code: voucher.code }), 'conflict', 409, 80017);
    await expectRefused(redeem({ code: voucher.code, release_key: `${key}x` }), 'conflict', 409, 80017);
    expect(await redeemed({ code: voucher.code, release_key: key })).toMatchObject({ status: 'REDEEMED', is_redeemed: true });
    await expectRefused(release(voucher.uuid, key), 'conflict', 409, 409);
  });

  it('refuses a release key for a voucher that is not locked', async () => {
    const voucher = await newVoucher({ contact_uuid: contact('olivia') });
    await expectRefused(redeem({ code: voucher.code, release_key: 'not-locked-at-all' }), 'conflict', 409, 409);
    expect(await statusOf(voucher.code)).toBe('ACTIVE');
  });

  it('keeps a multi-use voucher ACTIVE until its last redemption', async () => {
    const voucher = await newVoucher({ contact_uuid: contact('james'), total_redemptions_allowed: 3 });
    const first = await redeemed({ code: voucher.code });
    expect(first).toMatchObject({ status: 'ACTIVE', is_redeemed: true, times_redeemed: 1, redemptions_remaining: 2 });
    await redeem({ code: voucher.code });
    const last = await redeemed({ code: voucher.code });
    expect(last).toMatchObject({ status: 'REDEEMED', times_redeemed: 3, redemptions_remaining: 0 });
    expect(last.redeemed_at).toBe(last.voucher_redemption.created_at);
    // Used up is "already redeemed or none left", as for a single-use voucher.
    await expectRefused(redeem({ code: voucher.code }), 'conflict', 409, 80005);
    await expectRefused(lock(voucher.uuid), 'conflict', 409, 80005);
  });

  it('refuses EXPIRED, DEACTIVATED and INACTIVE vouchers before looking at the contact', async () => {
    await expectRefused(redeem({ code: 'WLK5T2GR' }), 'conflict', 409, 80006);
    await expectRefused(redeem({ code: 'KFD7H5SE' }), 'conflict', 409, 80012);
    await expectRefused(redeem({ code: 'KRT4Q6ZF' }), 'conflict', 409, 80014);
  });

  it('validates input, then finds voucher, shop and contact', async () => {
    await expectInvalid(suite.loose.redeemVoucher({}), 'code');
    await expectInvalid(suite.loose.redeemVoucher({ code: 'KOFFIE24' }), 'shop_uuid');
    await expectRefused(redeem({ code: 'NOPE0000' }), 'not_found', 404, 80004);
    await expectRefused(redeem({ code: 'KF9R4TBZ', shop_uuid: UNKNOWN }), 'not_found', 404, 1008);
    await expectRefused(redeem({ code: 'KF9R4TBZ', contact_uuid: UNKNOWN }), 'not_found', 404, 55031);
    expect(await statusOf('KF9R4TBZ')).toBe('ACTIVE');
  });
});

describe('Check Voucher Validity', () => {
  const validity = (uuid: string, input: { shop_uuid?: string; contact_uuid?: string } = {}) =>
    suite.client.checkVoucherValidity({ voucher_uuid: uuid, shop_uuid: suite.sandbox.shopUuid, ...input });
  const verdict = async (code: string, input: { contact_uuid?: string } = {}) =>
    (await validity(suite.sandbox.voucherUuid(code), input)).data;

  it('says valid, with the voucher, when a redemption would succeed', async () => {
    const answer = await validity(suite.sandbox.voucherUuid('KFQ7M2XA'));
    expect(lastStatus()).toBe(200);
    expect(answer).toMatchObject({ data: { valid: true, reason: null, voucher: { code: 'KFQ7M2XA' } }, meta: [] });
  });

  it('gives the code that would refuse the redemption now', async () => {
    expect(await verdict('KFR2D8WM')).toMatchObject({ valid: false, reason: { code: 80005 } });
    expect(await verdict('KFX4E9JC')).toMatchObject({ valid: false, reason: { code: 80006 } });
    expect(await verdict('KRT9C3LU')).toMatchObject({ valid: false, reason: { code: 80012 } });
    expect(await verdict('KFN3W8VK')).toMatchObject({ valid: false, reason: { code: 80014 } });
    expect(await verdict('WELKOM01', { contact_uuid: contact('james') })).toMatchObject({ valid: false, reason: { code: 409 } });
    const locked = await newVoucher({ contact_uuid: contact('sanne') });
    await lock(locked.uuid);
    expect((await validity(locked.uuid)).data).toMatchObject({ valid: false, reason: { code: 80017 }, voucher: { status: 'LOCKED' } });
  });

  it('answers 400 without shop, or without contact for a voucher that has none; 404 for unknowns', async () => {
    const koffie = suite.sandbox.voucherUuid('KOFFIE24');
    await expectInvalid(suite.loose.checkVoucherValidity({ voucher_uuid: koffie }), 'shop_uuid');
    await expectInvalid(validity(suite.sandbox.voucherUuid('KF9R4TBZ')), 'contact_uuid');
    await expectRefused(validity(UNKNOWN), 'not_found', 404, 80004);
    await expectRefused(validity(koffie, { shop_uuid: UNKNOWN }), 'not_found', 404, 1008);
    await expectRefused(validity(koffie, { contact_uuid: UNKNOWN }), 'not_found', 404, 55031);
  });

  it('changes nothing', async () => {
    await validity(suite.sandbox.voucherUuid('KRT10AMS'));
    expect(await statusOf('KRT10AMS')).toBe('ACTIVE');
  });
});
