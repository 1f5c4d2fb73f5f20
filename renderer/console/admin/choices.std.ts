import type { AdminVoucher } from '../../../common/manager-views.std.ts';
import { maskEmail } from '../../../common/masked-email.std.ts';

/**
 * Something to pick by name that the platform wants by uuid. The platform has no list of
 * promotions (or of contacts for the console): the console offers those it has seen in vouchers.
 */
export interface Choice {
  uuid: string;
  label: string;
}

/** `known` and `found` together, once per uuid (the latest label wins), sorted by label. */
export function remember(known: readonly Choice[], found: readonly Choice[]): Choice[] {
  const byUuid = new Map(known.map((choice) => [choice.uuid, choice]));
  for (const choice of found) byUuid.set(choice.uuid, choice);
  return [...byUuid.values()].sort((a, b) => a.label.localeCompare(b.label) || a.uuid.localeCompare(b.uuid));
}

export function promotionsOf(vouchers: readonly AdminVoucher[]): Choice[] {
  return vouchers.map(({ promotion }) => ({ uuid: promotion.uuid, label: promotion.name }));
}

/**
 * Contacts by their masked e-mail, as the console's lists sit on a shop-floor screen (#34 §2), told
 * apart by the start of their uuid (two addresses may mask alike).
 */
export function contactsOf(vouchers: readonly AdminVoucher[]): Choice[] {
  return vouchers.flatMap(({ contact }) => (contact ? [{ uuid: contact.uuid, label: `${maskEmail(contact.email) ?? '•••'} (${contact.uuid.slice(0, 8)})` }] : []));
}
