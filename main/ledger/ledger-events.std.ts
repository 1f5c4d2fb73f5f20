import { z } from 'zod';
import { LedgerKind, LedgerRow, SettledBy } from '../../common/report-views.std.ts';

/**
 * What the redemption steps tell the ledger. The rows it keeps (LedgerRow, and its kinds) are
 * common/'s, as the console shows them. A correction is a new row; a Lock the platform refused is
 * an attempt of one `refused` row.
 */

/** The kinds that end an attempt: at most one of them per attempt, whatever a crash repeats. */
export const ENDING_KINDS: readonly LedgerKind[] = ['redeemed', 'released', 'lock_lost'];

/** What the redemption steps know of an attempt (from the lock journal); the ledger adds the rest. */
export const AttemptFacts = LedgerRow.pick({
  attemptId: true,
  voucherUuid: true,
  voucherCode: true,
  voucherName: true,
  promotionName: true,
  contactUuid: true,
  identifiedBy: true,
});
export type AttemptFacts = z.infer<typeof AttemptFacts>;

/** One event as the redemption steps tell it. */
export const LedgerEntry = z.object({
  kind: LedgerKind,
  attempt: AttemptFacts,
  /** released and lock_lost: why (the ReleaseReason); unsettled: what was lost. */
  reason: z.string().nullable().default(null),
  /** refused: the platform's error code. */
  platformCode: z.string().nullable().default(null),
  /** redeemed: the platform's voucher_redemption uuid (unknown when Find settled it). */
  redemptionUuid: z.string().nullable().default(null),
  /** redeemed: when the platform says it happened. */
  redeemedAt: z.string().nullable().default(null),
  settledBy: SettledBy.nullable().default(null),
});
export type LedgerEntry = z.input<typeof LedgerEntry>;

/**
 * The ledger's columns, in the order of its table and its CSV: stable names, for the
 * spreadsheets and scripts a head office builds on them.
 */
export const LEDGER_COLUMNS = [
  'seq',
  'kind',
  'attemptId',
  'shift',
  'at',
  'localAt',
  'businessDay',
  'kioskId',
  'shopUuid',
  'voucherUuid',
  'voucherCode',
  'voucherName',
  'promotionName',
  'contactUuid',
  'identifiedBy',
  'reason',
  'platformCode',
  'redemptionUuid',
  'redeemedAt',
  'settledBy',
  'proofCode',
] as const satisfies readonly (keyof LedgerRow)[];
