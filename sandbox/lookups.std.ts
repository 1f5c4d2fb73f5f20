import { platformErrors } from '../api/operations.std.ts';
import { notFound } from './errors.std.ts';
import type { Contact, Promotion, SandboxState, Shop, StoredVoucher } from './state.std.ts';

/** Finding referenced records, or the platform's 404 for each kind. */
export function requireShop(state: SandboxState, uuid: string): Shop {
  const shop = state.shops.find((candidate) => candidate.uuid === uuid);
  if (!shop) throw notFound(platformErrors.shopNotFound, 'Shop not found.');
  return shop;
}

export function findContact(state: SandboxState, uuid: string | null): Contact | null {
  return state.contacts.find((candidate) => candidate.uuid === uuid) ?? null;
}

export function requireContact(state: SandboxState, uuid: string): Contact {
  const contact = findContact(state, uuid);
  if (!contact) throw notFound(platformErrors.contactNotFound, 'Contact not found.');
  return contact;
}

export function requirePromotion(state: SandboxState, uuid: string): Promotion {
  const promotion = state.promotions.find((candidate) => candidate.uuid === uuid);
  if (!promotion) throw notFound(platformErrors.promotionNotFound, 'Promotion not found.');
  return promotion;
}

export function requireVoucher(state: SandboxState, by: { uuid: string } | { code: string }): StoredVoucher {
  const voucher = state.vouchers.find((candidate) =>
    'uuid' in by ? candidate.uuid === by.uuid : candidate.code === by.code,
  );
  if (!voucher) throw notFound(platformErrors.voucherNotFound, 'Voucher not found.');
  return voucher;
}
