import type { z } from 'zod';
import { platformErrors } from '../api/operations.std.ts';
import type { CreateVoucherBody, ListVouchersQuery, UpdateVoucherBody } from '../api/vouchers.std.ts';
import { customAttributesRecord } from './custom-attributes.std.ts';
import { conflict, invalidField } from './errors.std.ts';
import { randomUuid, randomVoucherCode } from './ids.std.ts';
import { requireContact, requirePromotion, requireVoucher } from './lookups.std.ts';
import { paginate } from './pagination.std.ts';
import type { SandboxState, StoredVoucher } from './state.std.ts';
import { parseTimestamp } from './timestamps.std.ts';
import { endLock, heldLock, unusableReason, voucherStatus } from './voucher-status.std.ts';
import { voucherView, voucherWithCounts } from './voucher-views.std.ts';

/** List, find, create and update: the voucher operations that are not about using one. */

export function listVouchers(state: SandboxState, now: number, query: z.output<typeof ListVouchersQuery>) {
  const matching = state.vouchers.filter(
    (voucher) =>
      (query.promotion_uuid === undefined || voucher.promotion_uuid === query.promotion_uuid) &&
      (query.contact_uuid === undefined || voucher.contact_uuid === query.contact_uuid) &&
      (query.status === undefined || voucherStatus(voucher, now) === query.status),
  );
  const page = paginate(matching, query.limit, query.page ?? 1);
  return { data: page.data.map((voucher) => voucherView(state, voucher, now)), meta: page.meta };
}

export function findVoucher(state: SandboxState, now: number, code: string) {
  return voucherWithCounts(state, requireVoucher(state, { code }), now);
}

export function createVoucher(state: SandboxState, now: number, input: z.output<typeof CreateVoucherBody>) {
  const activation = optionalTimestamp('activation_date', input.activation_date) ?? now;
  const expiration = optionalTimestamp('expiration_date', input.expiration_date);
  requireExpiryAfterActivation(activation, expiration);
  const promotion = requirePromotion(state, input.promotion_uuid);
  const contact = input.contact_uuid ? requireContact(state, input.contact_uuid) : null;
  if (input.code && state.vouchers.some((voucher) => voucher.code === input.code)) {
    throw conflict(platformErrors.voucherCodeAlreadyExists, 'A voucher with this code already exists.');
  }
  const voucher: StoredVoucher = {
    uuid: randomUuid(),
    code: input.code || unusedCode(state),
    promotion_uuid: promotion.uuid,
    contact_uuid: contact?.uuid ?? null,
    name: promotion.name,
    description: promotion.description,
    status: 'ACTIVE',
    activation_date: activation,
    expiration_date: expiration,
    total_redemptions_allowed: input.total_redemptions_allowed ?? 1,
    attributes: customAttributesRecord(input.custom_attributes),
    redemptions: [],
    lock: null,
  };
  state.vouchers.push(voucher);
  return voucherView(state, voucher, now);
}

/**
 * Sets the given status. The expiration date moves only while the voucher reads ACTIVE or
 * INACTIVE before the update. A lock the voucher holds ends, since the voucher now reads the given
 * status: its key no longer works. Redemptions stay: a voucher with none left still reads REDEEMED.
 */
export function updateVoucher(
  state: SandboxState,
  now: number,
  uuid: string,
  input: z.output<typeof UpdateVoucherBody>,
) {
  const newExpiration = optionalTimestamp('expiration_date', input.expiration_date);
  const voucher = requireVoucher(state, { uuid });
  if (input.expiration_date !== undefined) {
    const status = voucherStatus(voucher, now);
    if (status !== 'ACTIVE' && status !== 'INACTIVE') throw unusableReason(status);
    requireExpiryAfterActivation(voucher.activation_date, newExpiration);
    voucher.expiration_date = newExpiration;
  }
  const lock = heldLock(voucher, now);
  if (lock) endLock(lock, now);
  voucher.status = input.status;
  // Spread, not Object.assign: an attribute named __proto__ must stay a plain key.
  voucher.attributes = { ...voucher.attributes, ...customAttributesRecord(input.custom_attributes) };
  return voucherWithCounts(state, voucher, now);
}

function optionalTimestamp(field: string, text: string | undefined): number | null {
  if (text === undefined) return null;
  const epochMs = parseTimestamp(text);
  if (epochMs === null) throw invalidField(field, `The ${field} is not a valid ISO 8601 date.`);
  return epochMs;
}

function requireExpiryAfterActivation(activation: number, expiration: number | null) {
  if (expiration !== null && expiration <= activation) {
    throw invalidField('expiration_date', 'The expiration_date must be after the activation_date.');
  }
}

function unusedCode(state: SandboxState): string {
  const taken = new Set(state.vouchers.map((voucher) => voucher.code));
  for (;;) {
    const code = randomVoucherCode();
    if (!taken.has(code)) return code;
  }
}
