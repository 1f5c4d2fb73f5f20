import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ErrorBody, operations, platformErrorByCode, platformErrors, type Operation } from './operations.std.ts';
import { RewardAttributeType } from './reward-attributes.std.ts';
import {
  samplePagination,
  samplePortalSession,
  sampleVoucher,
  sampleVoucherWithRedemptions,
} from './wire-samples.std.ts';

const shopUuid = '11111111-1111-1111-1111-111111111111';
const allOperations: Operation[] = Object.values(operations);
const keysOf = (schema?: z.ZodObject) => Object.keys(schema?.shape ?? {});

describe('the operations table', () => {
  it('has exactly the 23 operations, each named after its key', () => {
    expect(Object.keys(operations).sort()).toEqual(
      [
        'getPortalSession',
        'createPortalSession',
        'createCreditReceptionPortalSession',
        'createRedeemGiftcardsPortalSession',
        'createTopUpGiftcardsPortalSession',
        'createPayPrepaidPortalSession',
        'createTopUpPrepaidPortalSession',
        'createVoucherPortalSession',
        'listVouchers',
        'findVoucher',
        'createVoucher',
        'updateVoucher',
        'checkVoucherValidity',
        'redeemVoucher',
        'lockVoucher',
        'releaseVoucher',
        'listRewardAttributes',
        'createRewardAttribute',
        'findContactIdentifier',
        'findContactByEmail',
        'createContact',
        'createContactIdentifier',
        'getCreditBalance',
      ].sort(),
    );
    for (const [key, operation] of Object.entries(operations)) expect(operation.id).toBe(key);
  });

  it('declares a path parameter for every placeholder and no other', () => {
    for (const operation of allOperations) {
      const placeholders = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      expect(keysOf(operation.params), operation.id).toEqual(placeholders);
    }
  });

  it('never uses one input name in two places, so a flat input splits unambiguously', () => {
    for (const operation of allOperations) {
      const names = [operation.params, operation.query, operation.body].flatMap(keysOf);
      expect(new Set(names).size, operation.id).toBe(names.length);
    }
  });

  it('sends queries only with GETs and bodies only with POST and PUT', () => {
    for (const operation of allOperations) {
      if (operation.query) expect(operation.method, operation.id).toBe('GET');
      if (operation.body) expect(operation.method, operation.id).not.toBe('GET');
    }
  });

  it('asks for the credentials of the Authentication table', () => {
    const auth = Object.fromEntries(allOperations.map((operation) => [operation.id, operation.auth]));
    for (const id of Object.keys(auth).filter((id) => id.includes('PortalSession'))) {
      expect(auth[id], id).toEqual(['access_token', 'api_key']);
    }
    expect(auth.checkVoucherValidity).toEqual(['personal_access_token']);
    const apiKeyOnly = Object.keys(auth).filter((id) => !id.includes('PortalSession') && id !== 'checkVoucherValidity');
    expect(apiKeyOnly).toHaveLength(14);
    for (const id of apiKeyOnly) expect(auth[id], id).toEqual(['api_key']);
  });

  it('keeps the paths of the spec', () => {
    expect(operations.checkVoucherValidity.path).toBe('/v3/oauth/clients/vouchers/{voucher_uuid}/validate');
    expect(operations.findVoucher.path).toBe('/vouchers/find');
    expect(operations.findContactByEmail.path).toBe('/contacts/find-one-by');
    expect(operations.getCreditBalance.path).toBe('/contacts/{contact_uuid}/credit-balance');
  });
});

describe('request schemas', () => {
  const createSession = operations.createPortalSession.body;
  const redeemGiftcards = operations.createRedeemGiftcardsPortalSession.body;

  it('fill the documented defaults of a portal session', () => {
    expect(createSession.parse({ shop_uuid: shopUuid })).toEqual({
      shop_uuid: shopUuid,
      scanner_type: 'camera',
      enable_email_identification: false,
      enable_registration: false,
      enable_on_screen_keyboard: false,
      camera_service: 3,
      facing_mode: 'user',
      primary_identification_method: 'identifier',
    });
  });

  it.each([
    ['an unknown scanner type', { scanner_type: 'laser' }],
    ['camera_service 4', { camera_service: 4 }],
    ['a boolean sent as text', { enable_registration: 'true' }],
    ['an unknown facing mode', { facing_mode: 'left' }],
    ['an unknown field', { shopUuid }],
  ])('reject %s', (_name, extra) => {
    expect(createSession.safeParse({ shop_uuid: shopUuid, ...extra }).success).toBe(false);
  });

  it('require a whole positive amount_in_cents for redeem-giftcards only', () => {
    expect(redeemGiftcards.safeParse({ shop_uuid: shopUuid }).success).toBe(false);
    expect(redeemGiftcards.safeParse({ shop_uuid: shopUuid, amount_in_cents: 0 }).success).toBe(false);
    expect(redeemGiftcards.safeParse({ shop_uuid: shopUuid, amount_in_cents: 12.5 }).success).toBe(false);
    expect(redeemGiftcards.parse({ shop_uuid: shopUuid, amount_in_cents: 1250 })).toMatchObject({
      amount_in_cents: 1250,
      allow_multiple_giftcards: true,
    });
    expect(createSession.safeParse({ shop_uuid: shopUuid, amount_in_cents: 1250 }).success).toBe(false);
  });

  it('read list query values from text and bound the page size', () => {
    const query = operations.listVouchers.query;
    expect(query.parse({})).toEqual({ limit: 30 });
    expect(query.parse({ limit: '500', page: '2', status: 'LOCKED' })).toEqual({ limit: 500, page: 2, status: 'LOCKED' });
    expect(query.parse({ limit: '0' })).toEqual({ limit: 0 });
    expect(query.safeParse({ limit: '501' }).success).toBe(false);
    expect(query.safeParse({ limit: '-1' }).success).toBe(false);
    expect(query.safeParse({ limit: 'ten' }).success).toBe(false);
    expect(query.safeParse({ status: 'USED' }).success).toBe(false);
  });

  it('allow only ACTIVE and DEACTIVATED when updating a voucher', () => {
    const body = operations.updateVoucher.body;
    expect(body.safeParse({ status: 'DEACTIVATED' }).success).toBe(true);
    expect(body.safeParse({ status: 'REDEEMED' }).success).toBe(false);
    expect(body.safeParse({}).success).toBe(false);
  });

  it('take custom attributes by name or as name/value pairs', () => {
    const body = operations.createVoucher.body;
    const promotion_uuid = shopUuid;
    expect(body.safeParse({ promotion_uuid, custom_attributes: { table: 4, note: null } }).success).toBe(true);
    expect(body.safeParse({ promotion_uuid, custom_attributes: [{ name: 'table', value: 4 }] }).success).toBe(true);
    expect(body.safeParse({ promotion_uuid, custom_attributes: [4] }).success).toBe(false);
    expect(body.safeParse({ promotion_uuid, expiration_date: 'next week' }).success).toBe(false);
    expect(body.safeParse({ promotion_uuid, expiration_date: '2026-01-31T23:59:59+01:00' }).success).toBe(true);
  });

  it('require a shop and a code to redeem', () => {
    const body = operations.redeemVoucher.body;
    expect(body.safeParse({ code: 'ABC', shop_uuid: shopUuid, release_key: 'k' }).success).toBe(true);
    expect(body.safeParse({ code: 'ABC' }).success).toBe(false);
    expect(body.safeParse({ code: '', shop_uuid: shopUuid }).success).toBe(false);
  });

  it('know the 21 reward attribute types and allow options for select types only', () => {
    const body = operations.createRewardAttribute.body;
    expect(RewardAttributeType.options).toHaveLength(21);
    expect(body.safeParse({ name: 'size', type: 'emoji' }).success).toBe(false);
    const options = [{ label: 'Large', value: 1 }];
    expect(body.safeParse({ name: 'size', type: 'select', options }).success).toBe(true);
    expect(body.safeParse({ name: 'size', type: 'multi_select', options }).success).toBe(true);
    expect(body.safeParse({ name: 'size', type: 'text', options }).success).toBe(false);
  });

  it('check e-mail addresses of contacts', () => {
    expect(operations.createContact.body.safeParse({ email: 'jane@example.com' }).success).toBe(true);
    expect(operations.createContact.body.safeParse({ email: 'jane' }).success).toBe(false);
    expect(operations.findContactByEmail.query.safeParse({ email: 'jane' }).success).toBe(false);
  });
});

describe('response schemas', () => {
  it('accept a voucher list with per_page as text or number, and read an empty attribute map', () => {
    const list = operations.listVouchers.response;
    const answer = { data: [sampleVoucher], meta: samplePagination };
    const parsed = list.parse(answer);
    expect(parsed.data[0]?.attributes).toEqual({});
    expect(parsed.data[0]?.not_in_the_spec).toBe(true);
    expect(list.parse({ ...answer, meta: { ...samplePagination, per_page: 30 } }).meta.per_page).toBe(30);
    expect(list.safeParse({ ...answer, meta: { ...samplePagination, per_page: true } }).success).toBe(false);
  });

  it('want the redemption counters where the spec promises them', () => {
    expect(operations.findVoucher.response.safeParse({ data: sampleVoucherWithRedemptions, meta: [] }).success).toBe(true);
    expect(operations.findVoucher.response.safeParse({ data: sampleVoucher, meta: [] }).success).toBe(false);
    expect(operations.createVoucher.response.safeParse({ data: sampleVoucher, meta: [] }).success).toBe(true);
    const redeemed = {
      ...sampleVoucherWithRedemptions,
      status: 'REDEEMED',
      voucher_redemption: { uuid: 'r', created_at: '2025-01-02T10:00:00+00:00' },
    };
    expect(operations.redeemVoucher.response.safeParse({ data: redeemed, meta: [] }).success).toBe(true);
  });

  it('reject a voucher status outside the six states', () => {
    const answer = { data: { ...sampleVoucherWithRedemptions, status: 'USED' }, meta: [] };
    expect(operations.findVoucher.response.safeParse(answer).success).toBe(false);
  });

  it('want events in create answers only', () => {
    expect(operations.getPortalSession.response.safeParse({ data: samplePortalSession, meta: [] }).success).toBe(true);
    expect(operations.createPortalSession.response.safeParse({ data: samplePortalSession, meta: [] }).success).toBe(false);
    const created = { data: { ...samplePortalSession, events: [] }, meta: [] };
    expect(operations.createPayPrepaidPortalSession.response.safeParse(created).success).toBe(true);
  });

  it('want an empty meta array for single resources', () => {
    const answer = { data: samplePortalSession, meta: [] };
    expect(operations.getPortalSession.response.safeParse({ ...answer, meta: ['x'] }).success).toBe(false);
    expect(operations.getPortalSession.response.safeParse({ data: samplePortalSession }).success).toBe(false);
  });

  it('read lock and release answers', () => {
    const lock = {
      voucher: { uuid: sampleVoucher.uuid, status: 'LOCKED' },
      lock: { release_key: 'key', locked_at: '2025-01-01T10:00:00+00:00', unlocked_at: null, system_release_at: '2025-01-01T11:00:00+00:00' },
    };
    expect(operations.lockVoucher.response.parse({ data: lock, meta: [] }).data.lock.release_key).toBe('key');
  });

  it('read a validity answer with and without a reason', () => {
    const response = operations.checkVoucherValidity.response;
    expect(response.safeParse({ data: { valid: true, reason: null, voucher: sampleVoucher }, meta: [] }).success).toBe(true);
    const refused = { valid: false, reason: { code: 80005, message: 'Already redeemed' }, voucher: sampleVoucher };
    expect(response.safeParse({ data: refused, meta: [] }).success).toBe(true);
    expect(response.safeParse({ data: { ...refused, reason: 'redeemed' }, meta: [] }).success).toBe(false);
  });

  it('read reward attributes: text option values in lists, a bare object with numbers on create', () => {
    const attribute = {
      name: 'size',
      label: 'Size',
      placeholder: null,
      description: 'Cup size',
      type: 'select',
      fieldType: 'select',
      options: [{ label: 'Large', value: '1' }],
      isServiceDefined: 0,
      isSoftReadOnly: 0,
      isHardReadOnly: 1,
    };
    expect(operations.listRewardAttributes.response.safeParse({ data: [attribute] }).success).toBe(true);
    const numeric = { ...attribute, options: [{ label: 'Large', value: 1 }] };
    expect(operations.listRewardAttributes.response.safeParse({ data: [numeric] }).success).toBe(false);
    const created = {
      name: 'size',
      label: 'Size',
      description: 'Cup size',
      data_type: 'select',
      placeholder: null,
      options: [{ label: 'Large', value: 1 }],
    };
    expect(operations.createRewardAttribute.response.safeParse(created).success).toBe(true);
    expect(operations.createRewardAttribute.response.safeParse({ data: created, meta: [] }).success).toBe(false);
  });

  it('read contact answers with or without meta', () => {
    const identifier = { name: 'Card', value: '4000123', active: true, contact: { uuid: 'c', email: 'a@b.nl' } };
    expect(operations.findContactIdentifier.response.safeParse({ data: identifier }).success).toBe(true);
    expect(operations.findContactIdentifier.response.safeParse({ data: identifier, meta: [] }).success).toBe(true);
    expect(operations.getCreditBalance.response.parse({ data: { balance: 120 } }).data.balance).toBe(120);
    expect(operations.getCreditBalance.response.safeParse({ data: { balance: '120' } }).success).toBe(false);
  });
});

describe('platform errors', () => {
  it('read the error body with field messages', () => {
    const body = { message: 'Invalid', code: 1003, status_code: 400, errors: { shop_uuid: ['Required'] } };
    expect(ErrorBody.parse(body).errors).toEqual({ shop_uuid: ['Required'] });
    expect(ErrorBody.parse({ ...body, errors: [] }).errors).toEqual({});
    expect(ErrorBody.safeParse({ message: 'Invalid' }).success).toBe(false);
  });

  it('list each published code once, findable by number', () => {
    const codes = Object.values(platformErrors).map((error) => error.code);
    expect(codes).toHaveLength(18);
    expect(new Set(codes).size).toBe(codes.length);
    expect(platformErrorByCode(80004)?.category).toBe('not_found');
    expect(platformErrorByCode(80005)?.category).toBe('conflict');
    expect(platformErrorByCode(1003)?.category).toBe('validation');
    expect(platformErrorByCode(12345)).toBeUndefined();
  });
});
