import { platformErrors } from '../api/operations.std.ts';
import type { VoucherStatus } from '../api/vouchers.std.ts';
import { ApiError, conflict } from './errors.std.ts';
import type { StoredVoucher, VoucherLock } from './state.std.ts';

/** The lock still holding the voucher at `now`: not released by its key nor by the system. */
export function heldLock(voucher: StoredVoucher, now: number): VoucherLock | null {
  const lock = voucher.lock;
  if (!lock || lock.unlocked_at !== null || lock.system_release_at === null) return null;
  return now < lock.system_release_at ? lock : null;
}

/** Ends a lock now, by its key, a redemption or an update; the key no longer works. */
export function endLock(lock: VoucherLock, now: number): void {
  lock.unlocked_at = now;
  lock.system_release_at = null;
}

export function redemptionsRemaining(voucher: StoredVoucher): number {
  return Math.max(0, voucher.total_redemptions_allowed - voucher.redemptions.length);
}

/** The status as read at `now`; the order decides which state shows when several apply. */
export function voucherStatus(voucher: StoredVoucher, now: number): VoucherStatus {
  if (redemptionsRemaining(voucher) === 0) return 'REDEEMED';
  if (voucher.status === 'DEACTIVATED') return 'DEACTIVATED';
  if (voucher.expiration_date !== null && voucher.expiration_date <= now) return 'EXPIRED';
  if (voucher.activation_date > now) return 'INACTIVE';
  if (heldLock(voucher, now)) return 'LOCKED';
  return 'ACTIVE';
}

/** Why a voucher in `status` cannot be used (redeemed, locked, ...) now; null when it is ACTIVE. */
export function unusableReason(status: VoucherStatus): ApiError | null {
  switch (status) {
    case 'ACTIVE':
      return null;
    case 'REDEEMED':
      // 80005 means "already redeemed or none left": single-use and used-up multi-use alike.
      return conflict(platformErrors.voucherAlreadyRedeemed, 'The voucher has already been redeemed; no redemptions are left.');
    case 'EXPIRED':
      return conflict(platformErrors.voucherExpired, 'The voucher has expired.');
    case 'DEACTIVATED':
      return conflict(platformErrors.voucherDeactivated, 'The voucher has been deactivated.');
    case 'INACTIVE':
      return conflict(platformErrors.voucherInactive, 'The voucher is not active yet.');
    case 'LOCKED':
      return conflict(platformErrors.voucherAlreadyLocked, 'The voucher is locked by another process.');
  }
}
