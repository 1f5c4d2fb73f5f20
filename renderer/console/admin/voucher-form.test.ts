import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/i18n.svelte';
import { allowedChanges, emptyVoucherDraft, expirationUpdate, listQuery, noFilters, voucherBody } from './voucher-form.std.ts';

// The one t() of the kiosk, in English, with the admin tabs' messages loaded as the console loads them.
const t = i18n.t;
beforeAll(() => i18n.loadCatalogue('admin'));
const PROMOTION = '9b2f7a52-5b8e-4a57-9d0c-0c2b8d1e6f11';
const CONTACT = '4c1d9e0a-7f3b-4e62-8a15-3b9f6d2e7c40';

beforeAll(() => {
  process.env.TZ = 'Europe/Amsterdam';
});

describe('listQuery', () => {
  it('sends only the filters that are set', () => {
    expect(listQuery(noFilters(), 1, t)).toEqual({ ok: true, value: { limit: 30, page: 1 } });
    const filters = { promotionUuid: PROMOTION, contactUuid: ` ${CONTACT} `, status: 'DEACTIVATED' as const, limit: 500 };
    expect(listQuery(filters, 3, t)).toEqual({
      ok: true,
      value: { limit: 500, page: 3, promotion_uuid: PROMOTION, contact_uuid: CONTACT, status: 'DEACTIVATED' },
    });
  });

  it('refuses a typed uuid that is not one, by field', () => {
    const result = listQuery({ ...noFilters(), contactUuid: 'sanne' }, 1, t);
    expect(result).toMatchObject({ ok: false, problem: { fields: { contact_uuid: [t('field.uuid')] } } });
  });
});

describe('voucherBody', () => {
  it('needs only a promotion; the platform generates the code and applies its rules', () => {
    expect(voucherBody({ ...emptyVoucherDraft(), promotionUuid: PROMOTION }, t)).toEqual({ ok: true, value: { promotion_uuid: PROMOTION } });
  });

  it('sends every field, the dates in UTC and the attributes by name', () => {
    const draft = {
      promotionUuid: PROMOTION,
      code: ' SPRING30 ',
      contactUuid: CONTACT,
      activation: '2030-03-01T09:00',
      expiration: '2030-06-30T23:59',
      totalRedemptions: '3',
      attributes: [{ key: 'campaign', value: 'spring' }, { key: 'till', value: '' }],
    };
    expect(voucherBody(draft, t)).toEqual({
      ok: true,
      value: {
        promotion_uuid: PROMOTION,
        code: 'SPRING30',
        contact_uuid: CONTACT,
        activation_date: '2030-03-01T08:00:00Z',
        expiration_date: '2030-06-30T21:59:00Z',
        total_redemptions_allowed: 3,
        custom_attributes: { campaign: 'spring', till: '' },
      },
    });
  });

  it('refuses, by field, what the platform would refuse or misread', () => {
    const result = voucherBody(
      {
        ...emptyVoucherDraft(),
        contactUuid: 'not-a-uuid',
        activation: '2030-02-30T10:00',
        totalRedemptions: '0',
        attributes: [{ key: 'a', value: '1' }, { key: ' ', value: '2' }, { key: 'a', value: '3' }],
      },
      t,
    );
    expect(result).toEqual({
      ok: false,
      problem: {
        summary: t('problem.check_fields'),
        fields: {
          promotion_uuid: [t('field.required')],
          contact_uuid: [t('field.uuid')],
          activation_date: [t('field.datetime')],
          total_redemptions_allowed: [t('field.whole_number', { min: 1 })],
          'custom_attributes.1.name': [t('field.required')],
          'custom_attributes.2.name': [t('field.duplicate')],
        },
      },
    });
    expect(voucherBody({ ...emptyVoucherDraft(), promotionUuid: PROMOTION, totalRedemptions: '2.5' }, t)).toMatchObject({
      ok: false,
      problem: { fields: { total_redemptions_allowed: [t('field.whole_number', { min: 1 })] } },
    });
  });
});

describe('allowedChanges', () => {
  it('offers what the platform allows in each status', () => {
    expect(allowedChanges('ACTIVE')).toEqual({ activate: false, deactivate: true, expiration: true });
    expect(allowedChanges('INACTIVE')).toEqual({ activate: false, deactivate: true, expiration: true });
    expect(allowedChanges('EXPIRED')).toEqual({ activate: false, deactivate: true, expiration: false });
    expect(allowedChanges('DEACTIVATED')).toEqual({ activate: true, deactivate: false, expiration: false });
    expect(allowedChanges('REDEEMED')).toEqual({ activate: false, deactivate: false, expiration: false });
    expect(allowedChanges('LOCKED')).toEqual({ activate: false, deactivate: false, expiration: false });
  });
});

describe('expirationUpdate', () => {
  it('sends the new date in UTC and keeps the voucher active', () => {
    expect(expirationUpdate('v1', '2030-12-31T18:00', t)).toEqual({
      ok: true,
      value: { voucherUuid: 'v1', status: 'ACTIVE', expiration_date: '2030-12-31T17:00:00Z' },
    });
    expect(expirationUpdate('v1', '', t)).toMatchObject({ ok: false, problem: { fields: { expiration_date: [t('field.datetime')] } } });
  });
});
