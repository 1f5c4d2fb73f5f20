import type { ContactRef } from '../../api/contacts.std.ts';
import type { Voucher, VoucherWithRedemptions } from '../../api/vouchers.std.ts';
import type { PromotionMedia, ShopperView, VoucherView } from '../../common/shopper-views.std.ts';
import { maskEmail } from '../../common/masked-email.std.ts';

export function toShopperView(contact: Pick<ContactRef, 'uuid' | 'email'>): ShopperView {
  return { contactUuid: contact.uuid, maskedEmail: maskEmail(contact.email) };
}

// https: and data: images only; the renderer's CSP further allows only the platform's own origin,
// and VoucherMedia shows the gift for an image that does not load.
const DISPLAYABLE_IMAGE = /^(https:\/\/|data:image\/(png|jpeg|gif|webp|svg\+xml)[;,])/i;

function toMedia(media: Voucher['promotion']['media']): PromotionMedia | null {
  if (!media) return null;
  if (media.type === 'emoji' && media.value.length <= 16) return { kind: 'emoji', value: media.value };
  if (media.type === 'image' && DISPLAYABLE_IMAGE.test(media.value)) return { kind: 'image', value: media.value };
  return null;
}

export function toVoucherView(voucher: Voucher | VoucherWithRedemptions): VoucherView {
  // Loose schemas keep unknown fields, so `in` alone does not narrow: list answers carry no counters.
  const counters = typeof voucher.redemptions_remaining === 'number' ? (voucher as VoucherWithRedemptions) : null;
  return {
    uuid: voucher.uuid,
    code: voucher.code,
    status: voucher.status,
    name: voucher.name || voucher.promotion.name,
    description: voucher.description || voucher.promotion.description,
    media: toMedia(voucher.promotion.media),
    activatesAt: voucher.activation_date,
    expiresAt: voucher.expiration_date,
    redemptionsLeft: counters ? counters.redemptions_remaining : null,
    totalRedemptions: counters ? counters.total_redemptions_allowed : null,
    hasContact: voucher.contact !== null,
    contactUuid: voucher.contact?.uuid ?? null,
  };
}
