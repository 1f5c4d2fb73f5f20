import type { RewardAttribute } from '../../api/reward-attributes.std.ts';
import type { Voucher, VoucherWithRedemptions } from '../../api/vouchers.std.ts';
import type { AdminRewardAttribute, AdminVoucher } from '../../common/manager-views.std.ts';

/** Platform answers cut down to what the console shows: no raw body crosses the bridge. */

export function toAdminVoucher(voucher: Voucher | VoucherWithRedemptions): AdminVoucher {
  const counted = typeof voucher.times_redeemed === 'number' ? (voucher as VoucherWithRedemptions) : null;
  return {
    uuid: voucher.uuid,
    code: voucher.code,
    status: voucher.status,
    name: voucher.name,
    promotion: { uuid: voucher.promotion.uuid, name: voucher.promotion.name },
    contact: voucher.contact ? { uuid: voucher.contact.uuid, email: voucher.contact.email } : null,
    activationDate: voucher.activation_date,
    expirationDate: voucher.expiration_date,
    redeemedAt: voucher.redeemed_at,
    timesRedeemed: counted?.times_redeemed ?? null,
    totalRedemptionsAllowed: counted?.total_redemptions_allowed ?? null,
    attributes: { ...voucher.attributes },
  };
}

export function toAdminRewardAttribute(attribute: RewardAttribute): AdminRewardAttribute {
  return {
    name: attribute.name,
    label: attribute.label,
    description: attribute.description,
    type: attribute.type,
    fieldType: attribute.fieldType,
    placeholder: attribute.placeholder,
    options: attribute.options.map(({ label, value }) => ({ label, value })),
    isServiceDefined: attribute.isServiceDefined === 1,
    isSoftReadOnly: attribute.isSoftReadOnly === 1,
    isHardReadOnly: attribute.isHardReadOnly === 1,
  };
}
