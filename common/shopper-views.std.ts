import { z } from 'zod';
import { VoucherStatus } from '../api/vouchers.std.ts';

/**
 * What the shopper screens are shown of the platform's data: cut down in main, so a raw platform
 * body, a full e-mail address or a release key never reaches the renderer.
 */

export const ShopperView = z.object({
  contactUuid: z.uuid(),
  /** `s•••@example.nl`: enough for the shopper to recognise, too little for the next one to read. */
  maskedEmail: z.string().nullable(),
});
export type ShopperView = z.infer<typeof ShopperView>;

export const PromotionMedia = z.object({ kind: z.enum(['image', 'emoji']), value: z.string() });
export type PromotionMedia = z.infer<typeof PromotionMedia>;

export const VoucherView = z.object({
  uuid: z.uuid(),
  /** The shopper holds this code already (they scanned it or it is theirs); main needs it back to act. */
  code: z.string(),
  status: VoucherStatus,
  name: z.string(),
  description: z.string(),
  media: PromotionMedia.nullable(),
  activatesAt: z.string(),
  expiresAt: z.string().nullable(),
  /** Null where the answer carries no counters (list answers). */
  redemptionsLeft: z.number().int().nullable(),
  totalRedemptions: z.number().int().nullable(),
  /** Whether the voucher belongs to a contact; a contact-less voucher needs the shopper identified to redeem. */
  hasContact: z.boolean(),
  contactUuid: z.uuid().nullable(),
});
export type VoucherView = z.infer<typeof VoucherView>;

export const LookupResult = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('shopper'), shopper: ShopperView }),
  z.object({ kind: z.literal('voucher'), voucher: VoucherView }),
  z.object({ kind: z.literal('inactive_card') }),
  z.object({ kind: z.literal('unlinked_card') }),
  z.object({ kind: z.literal('unknown') }),
  /** A setup card (kioskctl setup-qr) shown to the shopper's screen: it is for the console. */
  z.object({ kind: z.literal('setup_card') }),
]);
export type LookupResult = z.infer<typeof LookupResult>;

/**
 * Demo mode's sample cards and voucher codes (the sandbox's fixed demo data), so a store trial
 * works with no scanner at all. Empty outside demo mode.
 */
const Sample = z.object({ value: z.string().min(1).max(64), name: z.string().max(100) });
export const DemoSamples = z.object({ cards: z.array(Sample).max(20), vouchers: z.array(Sample).max(20) });
export type DemoSamples = z.infer<typeof DemoSamples>;

export const VoucherPage = z.object({
  vouchers: z.array(VoucherView),
  page: z.number().int(),
  lastPage: z.number().int(),
  total: z.number().int(),
});
export type VoucherPage = z.infer<typeof VoucherPage>;

export const VoucherCheck = z.discriminatedUnion('checked', [
  /** No personal access token configured: the check is skipped (and logged). */
  z.object({ checked: z.literal(false) }),
  z.object({ checked: z.literal(true), valid: z.boolean(), platformCode: z.number().int().nullable() }),
]);
export type VoucherCheck = z.infer<typeof VoucherCheck>;

/** Why the receipt printer cannot print (#31 §3). */
export const PrinterIssue = z.enum(['paper_out', 'cover_open', 'offline', 'unreachable', 'no_answer']);
export type PrinterIssue = z.infer<typeof PrinterIssue>;

/**
 * What becomes of the slip, as known before a redemption: no printer (the proof is on screen),
 * one that is ready, or one that cannot print now (`issue`), so the proof is on screen only.
 */
export const SlipPlan = z.discriminatedUnion('printer', [
  z.object({ printer: z.enum(['none', 'ready']) }),
  z.object({ printer: z.literal('unavailable'), issue: PrinterIssue }),
]);
export type SlipPlan = z.infer<typeof SlipPlan>;

/** The redemption's slip: printed (take it), not printed (`issue`), or none (no printer). */
export const SlipResult = z.discriminatedUnion('slip', [
  z.object({ slip: z.enum(['printed', 'none']) }),
  z.object({ slip: z.literal('not_printed'), issue: PrinterIssue }),
]);
export type SlipResult = z.infer<typeof SlipResult>;

export const HeldLock = z.object({
  voucherUuid: z.uuid(),
  lockedAt: z.string(),
  /** When the platform would release the lock by itself. */
  systemReleaseAt: z.string().nullable(),
});
export type HeldLock = z.infer<typeof HeldLock>;

/** A held lock as the confirm screen gets it: with whether a slip will print, asked of the printer before the lock was taken. */
export const LockAnswer = HeldLock.extend({ slip: SlipPlan });
export type LockAnswer = z.infer<typeof LockAnswer>;

/** A redemption's proof for the till (#31): its proof code, the ledger row's number, when it was made. */
export const RedemptionProof = z.object({ code: z.string().regex(/^\d{10}$/), seq: z.number().int().positive(), at: z.string() });
export type RedemptionProof = z.infer<typeof RedemptionProof>;

const Redeemed = z.object({
  outcome: z.literal('redeemed'),
  redeemedAt: z.string(),
  voucher: VoucherView,
  /** null: the ledger could not record it, so there is no proof to show (the screen says to ask staff). */
  proof: RedemptionProof.nullable(),
  slip: SlipResult,
});

export const RedeemOutcome = z.discriminatedUnion('outcome', [
  Redeemed,
  /** The lock expired or was taken away before the redemption landed: nothing was redeemed. */
  z.object({ outcome: z.literal('lock_lost') }),
  /** The platform could not tell whether it redeemed: the lock is still held; confirm again (safe) or cancel. */
  z.object({ outcome: z.literal('unsettled') }),
]);
export type RedeemOutcome = z.infer<typeof RedeemOutcome>;

/**
 * Letting go of a lock, as it really went: released; lock_gone (the platform no longer held it;
 * after a confirm whose answer was lost, the kiosk will not lock the voucher again until it knows
 * whether that confirm landed); retrying (the platform could not be reached: released in the
 * background); not_held (this kiosk held no lock on it); or redeemed after all (a confirm whose
 * answer was lost had landed).
 */
export const ReleaseOutcome = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.enum(['released', 'lock_gone', 'retrying', 'not_held']) }),
  Redeemed,
]);
export type ReleaseOutcome = z.infer<typeof ReleaseOutcome>;

export const PortalSessionView = z.object({
  uuid: z.uuid(),
  url: z.url(),
  /** Origin the kiosk's session view is locked to. */
  origin: z.string(),
  contactUuid: z.uuid().nullable(),
  shopName: z.string(),
});
export type PortalSessionView = z.infer<typeof PortalSessionView>;

export const ServiceStatus = z.object({
  /** False while the loyalty platform cannot be reached: the kiosk shows "out of service". */
  available: z.boolean(),
  checkedAt: z.number().int(),
});
export type ServiceStatus = z.infer<typeof ServiceStatus>;
