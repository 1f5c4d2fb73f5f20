import { z } from 'zod';

/** A count under a name (a promotion, a voucher, a reason, an error code; null: none given). */
const Tally = z.object({ name: z.string().nullable(), count: z.number().int().nonnegative() });
export type Tally = z.infer<typeof Tally>;

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
});
export type ShiftReport = z.infer<typeof ShiftReport>;

/** One closed shift in a list of them. */
export const ZSummary = ShiftReport.pick({ zNumber: true, shift: true, openedAt: true, closedAt: true, redemptions: true });
export type ZSummary = z.infer<typeof ZSummary>;

/**
 * One event of a redemption as the console shows it to a manager settling a dispute: when, which
 * voucher and reward, how it ended. The shopper's contact is left out.
 */
export const RedemptionEventView = z.object({
  seq: z.number().int().positive(),
  kind: z.enum(['locked', 'unsettled', 'refused', 'redeemed', 'released', 'lock_lost']),
  attemptId: z.string(),
  at: z.string(),
  localAt: z.string(),
  voucherCode: z.string(),
  voucherName: z.string().nullable(),
  promotionName: z.string().nullable(),
  identifiedBy: z.string().nullable(),
  reason: z.string().nullable(),
  platformCode: z.string().nullable(),
  settledBy: z.string().nullable(),
});
export type RedemptionEventView = z.infer<typeof RedemptionEventView>;
