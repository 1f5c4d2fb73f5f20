import type { Locale } from '../../common/config-schema.std.ts';
import type { SlipResult } from '../../common/shopper-views.std.ts';
import { BridgeFailure, type InputOnlyHandlers } from '../bridge/dispatcher.std.ts';
import type { Logger } from '../logging/logger.std.ts';
import type { VisitLog } from '../logging/visit-log.std.ts';
import type { SlipService } from '../printer/slip-service.node.ts';
import type { VisitIdentity } from '../shopper/visit-identity.std.ts';
import { toVoucherView } from '../shopper/views.std.ts';
import type { Redeemed, RedemptionService } from '../vouchers/redemption-service.node.ts';
import { settleVisit } from '../vouchers/visit-settlement.node.ts';

/** The bridge calls of a voucher's redemption. */
export function createVoucherHandlers(options: {
  redemptions: RedemptionService;
  slips: SlipService;
  visit: VisitLog;
  identity: VisitIdentity;
  logger: Logger;
  /** Runs a shopper's action within its time budget. */
  shopperAction: <T>(action: () => Promise<T>) => Promise<T>;
}): InputOnlyHandlers<'lockVoucher' | 'redeemVoucher' | 'releaseVoucher' | 'endVisit'> {
  const { redemptions, slips, visit, identity, shopperAction } = options;
  /** The redemption as the screen shows it, with its slip printed (the printer's answer awaited). */
  const proven = async (redeemed: Redeemed, locale?: Locale) => ({ ...redeemedView(redeemed), slip: await slipOf(redeemed, locale) });
  const slipOf = async ({ voucher, proof }: Redeemed, locale?: Locale): Promise<SlipResult> => {
    if (!proof) return { slip: 'none' };
    try {
      const attributes = { ...voucher.attributes };
      return await slips.printProof({ reward: voucher.name, proofCode: proof.code, at: proof.at, seq: proof.seq, cardLast4: identity.cardLast4, locale, attributes });
    } catch (error) {
      // The redemption stands and its proof is on screen, whatever became of the paper.
      options.logger.error('slip not printed', { event: 'printer.slip_failed', error: (error as Error).message });
      return { slip: 'not_printed', issue: 'unreachable' };
    }
  };
  return {
    lockVoucher: ({ voucherUuid, code }) =>
      shopperAction(async () => {
        // Asked before the lock: a shopper hears that no slip will print before redeeming, not after.
        const slip = await slips.plan();
        if (slip.printer === 'unavailable' && slips.required) throw new BridgeFailure('printer_unavailable', `the receipt printer cannot print: ${slip.issue}`);
        // A voucher this visit was given is locked with the Lock alone; one the screen names otherwise is found first.
        const lock = await redemptions.lock(identity.given(voucherUuid, code) ?? code, { identifiedBy: identity.by });
        if (lock.voucherUuid !== voucherUuid) {
          await redemptions.release(lock.voucherUuid, 'cancel');
          throw new BridgeFailure('conflict', 'the code names another voucher');
        }
        return { ...lock, slip };
      }),
    redeemVoucher: ({ voucherUuid, contactUuid, locale }) =>
      shopperAction(async () => {
        const result = await redemptions.redeem(voucherUuid, { contactUuid });
        return result.outcome === 'redeemed' ? proven(result, locale) : result;
      }),
    releaseVoucher: ({ voucherUuid, reason }) =>
      shopperAction(async () => {
        const result = await redemptions.release(voucherUuid, reason);
        return result.outcome === 'redeemed' ? proven(result) : { outcome: result.outcome };
      }),
    endVisit: async () => {
      await settleVisit(redemptions, visit, identity);
      return null;
    },
  };
}

/** A redemption as the shopper screens show it: cut down to the voucher view, with its proof for the till. */
function redeemedView({ redeemedAt, voucher, proof }: Redeemed) {
  return { outcome: 'redeemed' as const, redeemedAt, voucher: toVoucherView(voucher), proof };
}
