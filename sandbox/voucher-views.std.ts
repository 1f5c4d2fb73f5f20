import { findContact, requirePromotion } from './lookups.std.ts';
import type { SandboxState, StoredVoucher } from './state.std.ts';
import { formatTimestamp } from './timestamps.std.ts';
import { redemptionsRemaining, voucherStatus } from './voucher-status.std.ts';

function formatOptional(epochMs: number | null): string | null {
  return epochMs === null ? null : formatTimestamp(epochMs);
}

/** A voucher as the platform writes it in lists and create answers. */
export function voucherView(state: SandboxState, voucher: StoredVoucher, now: number) {
  const promotion = requirePromotion(state, voucher.promotion_uuid);
  const contact = findContact(state, voucher.contact_uuid);
  const latestRedemption = voucher.redemptions.at(-1);
  return {
    uuid: voucher.uuid,
    code: voucher.code,
    status: voucherStatus(voucher, now),
    name: voucher.name,
    description: voucher.description,
    expiration_date: formatOptional(voucher.expiration_date),
    activation_date: formatTimestamp(voucher.activation_date),
    redeemed_at: latestRedemption ? formatTimestamp(latestRedemption.created_at) : null,
    is_redeemed: voucher.redemptions.length > 0,
    attributes: { ...voucher.attributes },
    contact: contact ? { uuid: contact.uuid, email: contact.email } : null,
    promotion: {
      uuid: promotion.uuid,
      name: promotion.name,
      description: promotion.description,
      voucher_limit: promotion.voucher_limit,
      limit_per_contact: promotion.limit_per_contact,
      expiration_duration: promotion.expiration_duration,
      ...(promotion.media && { media: { ...promotion.media } }),
    },
  };
}

/** Find, update and redeem answers (and validity) add the redemption counters. */
export function voucherWithCounts(state: SandboxState, voucher: StoredVoucher, now: number) {
  return {
    ...voucherView(state, voucher, now),
    redemptions_remaining: redemptionsRemaining(voucher),
    times_redeemed: voucher.redemptions.length,
    total_redemptions_allowed: voucher.total_redemptions_allowed,
  };
}

/** The answer of lock and release: the voucher's state and its (latest) lock. */
export function lockView(voucher: StoredVoucher, now: number) {
  const lock = voucher.lock;
  if (!lock) throw new Error(`voucher ${voucher.uuid} has never been locked`);
  return {
    voucher: { uuid: voucher.uuid, status: voucherStatus(voucher, now) },
    lock: {
      release_key: lock.release_key,
      locked_at: formatTimestamp(lock.locked_at),
      unlocked_at: formatOptional(lock.unlocked_at),
      system_release_at: formatOptional(lock.system_release_at),
    },
  };
}
