import { z } from 'zod';
import { IsoDateTime, Timestamp, Uuid, envelope, phpMap, queryInteger } from './common.std.ts';

/** Vouchers: listed, found by code, created, updated, validated, redeemed, locked and released. */

export const VoucherStatus = z.enum(['ACTIVE', 'REDEEMED', 'EXPIRED', 'DEACTIVATED', 'INACTIVE', 'LOCKED']);
export type VoucherStatus = z.output<typeof VoucherStatus>;

export const Promotion = z
  .looseObject({
    uuid: z.string(),
    name: z.string(),
    description: z.string(),
    voucher_limit: z.number().int(),
    // Both were null in every sample; their type is not published.
    limit_per_contact: z.unknown(),
    expiration_duration: z.unknown(),
    media: z.looseObject({ type: z.string(), value: z.string() }).nullish(),
  })
  .meta({ id: 'Promotion' });
export type Promotion = z.output<typeof Promotion>;

export const Voucher = z
  .looseObject({
    uuid: z.string(),
    code: z.string(),
    status: VoucherStatus,
    name: z.string(),
    description: z.string(),
    expiration_date: Timestamp.nullable(),
    activation_date: Timestamp,
    redeemed_at: Timestamp.nullable(),
    is_redeemed: z.boolean(),
    attributes: phpMap(z.unknown()).describe('Custom attributes by name; values may be null'),
    contact: z.looseObject({ uuid: z.string(), email: z.string() }).nullable(),
    promotion: Promotion,
  })
  .meta({ id: 'Voucher' });
export type Voucher = z.output<typeof Voucher>;

/** Find, update and redeem answers add the redemption counters. */
export const VoucherWithRedemptions = Voucher.extend({
  redemptions_remaining: z.number().int(),
  times_redeemed: z.number().int(),
  total_redemptions_allowed: z.number().int(),
}).meta({ id: 'VoucherWithRedemptions' });
export type VoucherWithRedemptions = z.output<typeof VoucherWithRedemptions>;

export const RedeemedVoucher = VoucherWithRedemptions.extend({
  voucher_redemption: z.looseObject({ uuid: z.string(), created_at: Timestamp }),
}).meta({ id: 'RedeemedVoucher' });
export type RedeemedVoucher = z.output<typeof RedeemedVoucher>;

/** How long the platform holds a voucher lock that is not released: it then releases it (`system_release_at`). */
export const LOCK_DURATION_MS = 60 * 60 * 1000;

export const VoucherLock = z
  .looseObject({
    voucher: z.looseObject({ uuid: z.string(), status: VoucherStatus }),
    lock: z.looseObject({
      release_key: z.string(),
      locked_at: Timestamp,
      unlocked_at: Timestamp.nullable(),
      system_release_at: Timestamp.nullable().describe('When the platform releases an unreleased lock'),
    }),
  })
  .meta({ id: 'VoucherLock' });
export type VoucherLock = z.output<typeof VoucherLock>;

export const Pagination = z
  .looseObject({
    current_page: z.number().int(),
    // Laravel sends null for from/to when a page is empty.
    from: z.number().int().nullable(),
    last_page: z.number().int(),
    per_page: z.union([z.string(), z.number().int()]),
    to: z.number().int().nullable(),
    total: z.number().int(),
  })
  .meta({ id: 'Pagination' });
export type Pagination = z.output<typeof Pagination>;

export const VoucherValidity = z
  .looseObject({
    valid: z.boolean(),
    reason: z.looseObject({ code: z.number().int(), message: z.string() }).nullable(),
    voucher: Voucher,
  })
  .meta({ id: 'VoucherValidity' });
export type VoucherValidity = z.output<typeof VoucherValidity>;

const AttributeValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * The spec calls these a "key-value array": a PHP associative array, i.e. a JSON object by name,
 * or a list of `{name, value}` pairs; both are accepted.
 */
const CustomAttributes = z.union([
  z.record(z.string(), AttributeValue),
  z.array(z.strictObject({ name: z.string().min(1), value: AttributeValue })),
]);

export const ListVouchersQuery = z.strictObject({
  promotion_uuid: Uuid.optional(),
  contact_uuid: Uuid.optional(),
  status: VoucherStatus.optional(),
  limit: queryInteger(z.number().int().min(0).max(500).default(30)),
  page: queryInteger(z.number().int().min(1).optional()),
});
export type ListVouchersQuery = z.input<typeof ListVouchersQuery>;

export const FindVoucherQuery = z.strictObject({ code: z.string().min(1) });

export const VoucherParams = z.strictObject({ voucher_uuid: Uuid });

export const CreateVoucherBody = z
  .strictObject({
    promotion_uuid: Uuid,
    code: z.string().min(1).optional(),
    contact_uuid: Uuid.optional(),
    expiration_date: IsoDateTime.optional(),
    activation_date: IsoDateTime.optional(),
    total_redemptions_allowed: z.number().int().min(1).optional(),
    custom_attributes: CustomAttributes.optional(),
  })
  .meta({ id: 'CreateVoucherBody' });
export type CreateVoucherBody = z.input<typeof CreateVoucherBody>;

export const UpdateVoucherBody = z
  .strictObject({
    status: z.enum(['ACTIVE', 'DEACTIVATED']),
    custom_attributes: CustomAttributes.optional(),
    expiration_date: IsoDateTime.optional().describe('Allowed only for INACTIVE and ACTIVE vouchers'),
  })
  .meta({ id: 'UpdateVoucherBody' });
export type UpdateVoucherBody = z.input<typeof UpdateVoucherBody>;

export const CheckVoucherValidityBody = z
  .strictObject({
    contact_uuid: Uuid.optional().describe('Required when no contact is linked to the voucher'),
    shop_uuid: Uuid,
  })
  .meta({ id: 'CheckVoucherValidityBody' });
export type CheckVoucherValidityBody = z.input<typeof CheckVoucherValidityBody>;

export const RedeemVoucherBody = z
  .strictObject({
    code: z.string().min(1),
    shop_uuid: Uuid,
    contact_uuid: Uuid.optional().describe('Required when no contact is linked to the voucher'),
    release_key: z.string().min(1).optional().describe('Key from the lock, when the voucher was locked'),
  })
  .meta({ id: 'RedeemVoucherBody' });
export type RedeemVoucherBody = z.input<typeof RedeemVoucherBody>;

export const ReleaseVoucherBody = z.strictObject({ release_key: z.string().min(1) }).meta({ id: 'ReleaseVoucherBody' });
export type ReleaseVoucherBody = z.input<typeof ReleaseVoucherBody>;

export const VoucherResponse = envelope(Voucher);
export const VoucherWithRedemptionsResponse = envelope(VoucherWithRedemptions);
export const RedeemedVoucherResponse = envelope(RedeemedVoucher);
export const VoucherLockResponse = envelope(VoucherLock);
export const VoucherValidityResponse = envelope(VoucherValidity);
export const VoucherListResponse = z.looseObject({ data: z.array(Voucher), meta: Pagination });
