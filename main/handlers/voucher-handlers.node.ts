import { BridgeFailure, type InputOnlyHandlers } from '../bridge/dispatcher.std.ts';
import type { VisitLog } from '../logging/visit-log.std.ts';
import type { VisitIdentity } from '../shopper/visit-identity.std.ts';
import { toVoucherView } from '../shopper/views.std.ts';
import type { Redeemed, RedemptionService } from '../vouchers/redemption-service.node.ts';
import { settleVisit } from '../vouchers/visit-settlement.node.ts';

/** The bridge calls of a voucher's redemption. */
export function createVoucherHandlers(options: {
  redemptions: RedemptionService;
  visit: VisitLog;
  identity: VisitIdentity;
  /** Runs a shopper's action within its time budget. */
  shopperAction: <T>(action: () => Promise<T>) => Promise<T>;
}): InputOnlyHandlers<'lockVoucher' | 'redeemVoucher' | 'releaseVoucher' | 'endVisit'> {
  const { redemptions, visit, identity, shopperAction } = options;
  return {
    lockVoucher: ({ voucherUuid, code }) =>
      shopperAction(async () => {
        const lock = await redemptions.lock(code, { identifiedBy: identity.by });
        if (lock.voucherUuid !== voucherUuid) {
          await redemptions.release(lock.voucherUuid, 'cancel');
          throw new BridgeFailure('conflict', 'the code names another voucher');
        }
        return lock;
      }),
    redeemVoucher: ({ voucherUuid, contactUuid }) =>
      shopperAction(async () => {
        const result = await redemptions.redeem(voucherUuid, { contactUuid });
        return result.outcome === 'redeemed' ? redeemedView(result) : result;
      }),
    releaseVoucher: ({ voucherUuid, reason }) =>
      shopperAction(async () => {
        const result = await redemptions.release(voucherUuid, reason);
        return result.outcome === 'redeemed' ? redeemedView(result) : { outcome: result.outcome };
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
