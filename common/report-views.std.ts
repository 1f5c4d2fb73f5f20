import { z } from 'zod';

/** A local business day, YYYY-MM-DD (ledger.businessDayStartsAt says when one starts). */
export const BusinessDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day is YYYY-MM-DD');

/** A count under a name (a promotion, a voucher, a reason, an error code; null: none given). */
const Tally = z.object({ name: z.string().nullable(), count: z.number().int().nonnegative() });
export type Tally = z.infer<typeof Tally>;

/**
 * Where the platform disagrees with a voucher's `redeemed` rows (#30 §3): it does not know the
 * code, it counts fewer redemptions than the kiosk recorded (a single-use voucher not REDEEMED), or
 * it dates the redemption differently.
 */
export const MismatchKind = z.enum(['unknown_at_platform', 'fewer_at_platform', 'time_differs']);
export type MismatchKind = z.infer<typeof MismatchKind>;

export const Mismatch = z.object({
  kind: MismatchKind,
  voucherCode: z.string(),
  voucherName: z.string().nullable(),
  /** The voucher's `redeemed` rows in this ledger, every shift kept. */
  ledgerRedemptions: z.number().int().nonnegative(),
  /** The platform's times_redeemed; null when it does not know the code. */
  platformRedemptions: z.number().int().nonnegative().nullable(),
  ledgerRedeemedAt: z.string().nullable(),
  platformRedeemedAt: z.string().nullable(),
});
export type Mismatch = z.infer<typeof Mismatch>;

/**
 * A shift's rows checked against the platform: every voucher redeemed in it found by its code, and
 * the attempts still open settled. A closed shift's is checked once, after its Z, and kept beside it.
 */
export const Reconciliation = z.object({
  /** pending: not every voucher checked yet (the platform busy or away; it goes on by itself). */
  state: z.enum(['pending', 'done']),
  /** Vouchers checked so far, of those the shift redeemed. */
  checked: z.number().int().nonnegative(),
  vouchers: z.number().int().nonnegative(),
  mismatches: z.array(Mismatch),
  /** Attempts the ledger still had open, settled by what the platform said. */
  resolved: z.number().int().nonnegative(),
  finishedAt: z.string().nullable(),
});
export type Reconciliation = z.infer<typeof Reconciliation>;

/**
 * What a shift report tells: X (the shift so far, no side effects) or Z (the shift closed, never
 * changed). Counts of attempts and their endings only: no shopper data, so the fleet may carry it.
 */
export const ShiftReport = z.object({
  kind: z.enum(['x', 'z']),
  shift: z.number().int().positive(),
  /** Z only: sequential across the kiosk's life, never reset. */
  zNumber: z.number().int().positive().nullable(),
  openedAt: z.string(),
  /** Z: when it was closed; X: when the report was made. */
  closedAt: z.string(),
  kioskId: z.string().nullable(),
  shopUuid: z.string().nullable(),
  redemptions: z.number().int().nonnegative(),
  byPromotion: z.array(Tally),
  byVoucher: z.array(Tally),
  /** Locks let go without a redemption, by why (ReleaseReason); lock_lost: the platform's lock lapsed first. */
  releases: z.array(Tally),
  /** Refused by the platform, by its error code. */
  refusals: z.array(Tally),
  /** Attempts whose outcome was unknown for a while, and how they ended (open: not yet). */
  unsettled: z.object({
    attempts: z.number().int().nonnegative(),
    redeemed: z.number().int().nonnegative(),
    released: z.number().int().nonnegative(),
    open: z.number().int().nonnegative(),
  }),
  firstRedemptionAt: z.string().nullable(),
  lastRedemptionAt: z.string().nullable(),
  outOfServiceMinutes: z.number().int().nonnegative(),
  /** Z: its check against the platform (kept beside the Z, which never changes); X: when one was asked for. */
  reconciliation: Reconciliation.nullable().default(null),
});
export type ShiftReport = z.infer<typeof ShiftReport>;

/** One closed shift in a list of them. */
export const ZSummary = ShiftReport.pick({ zNumber: true, shift: true, openedAt: true, closedAt: true, redemptions: true });
export type ZSummary = z.infer<typeof ZSummary>;


/**
 * The rows of the redemption ledger (main/ledger/): one per event of a redemption, never changed
 * once written. One attempt is one lock of one voucher, from the Redeem tap to its end: `locked`,
 * then any `unsettled` or `refused`, then one ending (`redeemed`, `released` or `lock_lost`).
 */
export const LEDGER_KINDS = ['locked', 'unsettled', 'refused', 'redeemed', 'released', 'lock_lost'] as const;
export const LedgerKind = z.enum(LEDGER_KINDS);
export type LedgerKind = z.infer<typeof LedgerKind>;

/**
 * How the shopper was known when the voucher was locked: a card (scanned, or read by the camera),
 * a number typed on the screen, an e-mail, joining on the spot, or none (the voucher alone).
 */
export const IdentifiedBy = z.enum(['card', 'typed', 'email', 'joined', 'voucher']);
export type IdentifiedBy = z.infer<typeof IdentifiedBy>;

/** How an unsettled redemption's outcome was learnt: the Redeem's own answer, or Find Voucher (at a confirm, a release, a start). */
export const SettledBy = z.enum(['redeem', 'find']);

/** A row as the ledger keeps it. */
export const LedgerRow = z.object({
  attemptId: z.string().min(1),
  voucherUuid: z.string().min(1),
  voucherCode: z.string().min(1),
  voucherName: z.string().nullable(),
  promotionName: z.string().nullable(),
  /** The contact's uuid only: never an e-mail or a name. */
  contactUuid: z.string().nullable(),
  identifiedBy: IdentifiedBy.nullable(),
  seq: z.number().int().positive(),
  kind: LedgerKind,
  shift: z.number().int().positive(),
  /** UTC, ISO 8601. */
  at: z.string(),
  /** The same moment on the kiosk's clock, with its offset (ISO 8601). */
  localAt: z.string(),
  businessDay: BusinessDay,
  kioskId: z.string().nullable(),
  shopUuid: z.string().nullable(),
  reason: z.string().nullable(),
  platformCode: z.string().nullable(),
  redemptionUuid: z.string().nullable(),
  redeemedAt: z.string().nullable(),
  settledBy: SettledBy.nullable(),
  /** redeemed: the proof the shopper shows at the till (ten digits, the last a check digit). */
  proofCode: z.string().nullable(),
});
export type LedgerRow = z.infer<typeof LedgerRow>;

/** What became of a slip: printed and confirmed, not printed (and why), or kept as a preview (no printer). */
export const SlipOutcome = z.enum(['printed', 'not_printed', 'preview']);
export type SlipOutcome = z.infer<typeof SlipOutcome>;

/** A slip of a redemption, as the ledger keeps it: the first, and each reprint (a DUPLICATE). */
export const SlipRecord = z.object({
  proofCode: z.string().min(1),
  /** The ledger row of the redemption it proves. */
  redemptionSeq: z.number().int().positive(),
  /** UTC, ISO 8601. */
  at: z.string(),
  duplicate: z.boolean(),
  outcome: SlipOutcome,
  /** not_printed: why (paper_out, cover_open, offline, unreachable, no_answer). */
  reason: z.string().nullable(),
  /** The card's last four characters and the till's barcode the slip carried, so a reprint is the same slip. */
  cardLast4: z.string().max(4).nullable(),
  posBarcode: z.string().nullable(),
});
export type SlipRecord = z.infer<typeof SlipRecord>;

/**
 * One event of a redemption as the console shows it to a manager settling a dispute: when, which
 * voucher and reward, how it ended. The shopper's contact is left out.
 */
export const RedemptionEventView = LedgerRow.pick({
  seq: true,
  kind: true,
  attemptId: true,
  at: true,
  localAt: true,
  voucherCode: true,
  voucherName: true,
  promotionName: true,
  identifiedBy: true,
  reason: true,
  platformCode: true,
  settledBy: true,
  proofCode: true,
});
export type RedemptionEventView = z.infer<typeof RedemptionEventView>;
