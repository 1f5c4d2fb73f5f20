import type { VoucherStatus } from '../../api/vouchers.std.ts';
import { platformErrors } from '../../api/errors.std.ts';
import type { BridgeError } from '../../common/contract.std.ts';

/** What a shopper is told when something did not work: always a plain sentence, never a code. */
export type ProblemKey =
  | 'problem.voucher.redeemed'
  | 'problem.voucher.expired'
  | 'problem.voucher.deactivated'
  | 'problem.voucher.not_active_yet'
  | 'problem.voucher.in_use'
  | 'problem.voucher.none_left'
  | 'problem.voucher.lock_lost'
  | 'problem.voucher.unsettled'
  | 'problem.voucher.not_found'
  | 'problem.card.inactive'
  | 'problem.card.unlinked'
  | 'problem.card.setup'
  | 'problem.code.unknown'
  | 'problem.code.paused'
  | 'problem.busy'
  | 'problem.redeem.unavailable'
  | 'problem.printer.unavailable'
  | 'problem.portal.refused'
  | 'problem.email.not_found'
  | 'problem.email.taken'
  | 'problem.card.taken'
  | 'problem.connection'
  | 'problem.generic';

const byPlatformCode: Record<number, ProblemKey> = {
  [platformErrors.voucherAlreadyRedeemed.code]: 'problem.voucher.redeemed',
  [platformErrors.voucherExpired.code]: 'problem.voucher.expired',
  [platformErrors.voucherDeactivated.code]: 'problem.voucher.deactivated',
  [platformErrors.voucherInactive.code]: 'problem.voucher.not_active_yet',
  [platformErrors.voucherAlreadyLocked.code]: 'problem.voucher.in_use',
  [platformErrors.notEnoughRedemptionsLeft.code]: 'problem.voucher.none_left',
  [platformErrors.voucherNotFound.code]: 'problem.voucher.not_found',
  [platformErrors.contactIdentifierInactive.code]: 'problem.card.inactive',
  [platformErrors.contactAlreadyExists.code]: 'problem.email.taken',
  [platformErrors.contactIdentifierAlreadyLinked.code]: 'problem.card.taken',
};

const connectionCodes = new Set<BridgeError['code']>(['network', 'timeout', 'maintenance', 'server', 'unavailable', 'auth']);

export function problemForError(error: BridgeError): ProblemKey {
  if (error.platformCode !== undefined && byPlatformCode[error.platformCode]) return byPlatformCode[error.platformCode]!;
  if (connectionCodes.has(error.code)) return 'problem.connection';
  if (error.code === 'too_many_attempts') return 'problem.code.paused';
  // Busy, not down: the screen stays, and its own button is the retry.
  if (error.code === 'rate_limited') return 'problem.busy';
  if (error.code === 'portal_refused') return 'problem.portal.refused';
  // Nothing was redeemed; Redeem takes the lock again.
  if (error.code === 'not_locked') return 'problem.voucher.lock_lost';
  // The kiosk cannot record a redemption: it makes none, and staff must see to it.
  if (error.code === 'ledger_unavailable') return 'problem.redeem.unavailable';
  // printer.required: no redemption without its slip; nothing was locked.
  if (error.code === 'printer_unavailable') return 'problem.printer.unavailable';
  return 'problem.generic';
}

/** Why a voucher in this state cannot be redeemed now; null when it can. */
export function problemForStatus(status: VoucherStatus): ProblemKey | null {
  switch (status) {
    case 'ACTIVE':
      return null;
    case 'REDEEMED':
      return 'problem.voucher.redeemed';
    case 'EXPIRED':
      return 'problem.voucher.expired';
    case 'DEACTIVATED':
      return 'problem.voucher.deactivated';
    case 'INACTIVE':
      return 'problem.voucher.not_active_yet';
    case 'LOCKED':
      return 'problem.voucher.in_use';
  }
}
