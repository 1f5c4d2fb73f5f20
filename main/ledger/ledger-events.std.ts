import { z } from 'zod';

/**
 * The rows of the redemption ledger: one per event of a redemption, never changed once written
 * (a correction is a new row). One attempt is one lock of one voucher, from the Redeem tap to its
 * end: `locked`, then any `unsettled` or `refused`, then one ending (`redeemed`, `released` or
 * `lock_lost`). A Lock the platform refused is an attempt of one `refused` row.
 */
export const LEDGER_KINDS = ['locked', 'unsettled', 'refused', 'redeemed', 'released', 'lock_lost'] as const;
export const LedgerKind = z.enum(LEDGER_KINDS);
export type LedgerKind = z.infer<typeof LedgerKind>;

/** The kinds that end an attempt: at most one of them per attempt, whatever a crash repeats. */
export const ENDING_KINDS: readonly LedgerKind[] = ['redeemed', 'released', 'lock_lost'];

/**
 * How the shopper was known when the voucher was locked: a card (scanned, or read by the camera),
 * a number typed on the screen, an e-mail, joining on the spot, or none (the voucher alone).
 */
export const IdentifiedBy = z.enum(['card', 'typed', 'email', 'joined', 'voucher']);
export type IdentifiedBy = z.infer<typeof IdentifiedBy>;

/** How an unsettled redemption's outcome was learnt: the Redeem's own answer, or Find Voucher (at a confirm, a release, a start). */
export const SettledBy = z.enum(['redeem', 'find']);

/** What the redemption steps know of an attempt (from the lock journal); the ledger adds the rest. */
export const AttemptFacts = z.object({
  attemptId: z.string().min(1),
  voucherUuid: z.string().min(1),
  voucherCode: z.string().min(1),
  voucherName: z.string().nullable(),
  promotionName: z.string().nullable(),
  /** The contact's uuid only: never an e-mail or a name. */
  contactUuid: z.string().nullable(),
  identifiedBy: IdentifiedBy.nullable(),
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

/** A row as the ledger keeps it. */
export const LedgerRow = AttemptFacts.extend({
  seq: z.number().int().positive(),
  kind: LedgerKind,
  shift: z.number().int().positive(),
  /** UTC, ISO 8601. */
  at: z.string(),
  /** The same moment on the kiosk's clock, with its offset (ISO 8601). */
  localAt: z.string(),
  /** YYYY-MM-DD, the local business day (ledger.businessDayStartsAt). */
  businessDay: z.string(),
  kioskId: z.string().nullable(),
  shopUuid: z.string().nullable(),
  reason: z.string().nullable(),
  platformCode: z.string().nullable(),
  redemptionUuid: z.string().nullable(),
  redeemedAt: z.string().nullable(),
  settledBy: SettledBy.nullable(),
});
export type LedgerRow = z.infer<typeof LedgerRow>;

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
] as const satisfies readonly (keyof LedgerRow)[];
