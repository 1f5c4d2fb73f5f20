import type { z } from 'zod';
import { platformErrors } from '../api/operations.std.ts';
import { type CheckVoucherValidityBody, LOCK_DURATION_MS, type RedeemVoucherBody } from '../api/vouchers.std.ts';
import { ApiError, conflict, httpError, invalidField } from './errors.std.ts';
import { randomHex, randomUuid } from './ids.std.ts';
import { requireContact, requireShop, requireVoucher } from './lookups.std.ts';
import type { SandboxState, StoredVoucher, VoucherLock } from './state.std.ts';
import { formatTimestamp } from './timestamps.std.ts';
import { endLock, heldLock, unusableReason, voucherStatus } from './voucher-status.std.ts';
import { lockView, voucherWithCounts } from './voucher-views.std.ts';

/** Using a voucher: lock, release, redeem, and asking whether a redemption would succeed. */

export function lockVoucher(state: SandboxState, now: number, uuid: string) {
  const voucher = requireVoucher(state, { uuid });
  const refusal = unusableReason(voucherStatus(voucher, now));
  if (refusal) throw refusal;
  voucher.lock = {
    release_key: randomHex(24),
    locked_at: now,
    unlocked_at: null,
    system_release_at: now + LOCK_DURATION_MS,
  };
  return lockView(voucher, now);
}

export function releaseVoucher(state: SandboxState, now: number, uuid: string, releaseKey: string) {
  const voucher = requireVoucher(state, { uuid });
  endLock(heldLockMatching(voucher, now, releaseKey), now);
  return lockView(voucher, now);
}

/** Who and where a redemption (or a validity check) is for, and the lock's key if any. */
interface RedemptionRequest {
  shop_uuid: string;
  contact_uuid?: string;
  release_key?: string;
}

export function redeemVoucher(state: SandboxState, now: number, input: z.output<typeof RedeemVoucherBody>) {
  const voucher = requireVoucher(state, { code: input.code });
  requireRedemptionParties(state, input);
  const { lock, contactUuid } = checkRedemption(voucher, now, input);
  if (lock) endLock(lock, now);
  const redemption = { uuid: randomUuid(), created_at: now, shop_uuid: input.shop_uuid, contact_uuid: contactUuid };
  voucher.redemptions.push(redemption);
  return {
    ...voucherWithCounts(state, voucher, now),
    voucher_redemption: { uuid: redemption.uuid, created_at: formatTimestamp(redemption.created_at) },
  };
}

/**
 * Check Voucher Validity runs exactly the checks of a redemption without redeeming: a refusal a
 * redemption would meet now (409) becomes the `reason`; bad or missing input stays an error.
 */
export function checkVoucherValidity(
  state: SandboxState,
  now: number,
  uuid: string,
  request: z.output<typeof CheckVoucherValidityBody>,
) {
  const voucher = requireVoucher(state, { uuid });
  requireRedemptionParties(state, request);
  let reason: { code: number; message: string } | null = null;
  try {
    checkRedemption(voucher, now, request);
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 409)) throw error;
    reason = { code: error.code, message: error.message };
  }
  return { valid: reason === null, reason, voucher: voucherWithCounts(state, voucher, now) };
}

function requireRedemptionParties(state: SandboxState, request: RedemptionRequest) {
  requireShop(state, request.shop_uuid);
  if (request.contact_uuid) requireContact(state, request.contact_uuid);
}

/**
 * Throws what would refuse this redemption now: the voucher's state first, then the contact
 * rule, the order the platform checks them in. Otherwise gives the lock the release key opens
 * (if the voucher is locked) and the contact the redemption is for.
 */
function checkRedemption(voucher: StoredVoucher, now: number, request: RedemptionRequest) {
  const status = voucherStatus(voucher, now);
  let lock: VoucherLock | null = null;
  if (status === 'LOCKED') {
    lock = heldLockMatching(voucher, now, request.release_key ?? '');
  } else {
    const refusal = unusableReason(status);
    if (refusal) throw refusal;
    if (request.release_key) throw httpError(409, 'The voucher is not locked; send no release_key.');
  }
  const contactUuid = voucher.contact_uuid ?? request.contact_uuid;
  if (!contactUuid) {
    throw invalidField('contact_uuid', 'The contact_uuid is required for a voucher without a contact.');
  }
  if (request.contact_uuid && request.contact_uuid !== contactUuid) {
    throw httpError(409, 'The voucher belongs to another contact.');
  }
  return { lock, contactUuid };
}

/** The lock holding the voucher, when `releaseKey` is its key; 409 otherwise. */
function heldLockMatching(voucher: StoredVoucher, now: number, releaseKey: string) {
  const lock = heldLock(voucher, now);
  if (!lock) throw httpError(409, 'The voucher is not locked.');
  if (lock.release_key !== releaseKey) {
    throw conflict(platformErrors.voucherAlreadyLocked, 'The voucher is locked and the release_key does not match.');
  }
  return lock;
}
