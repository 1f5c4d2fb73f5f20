import { BridgeFailure, type InputOnlyHandlers } from '../bridge/dispatcher.std.ts';
import type { VisitLog } from '../logging/visit-log.std.ts';
import type { PlatformConnection } from '../loyalty/platform-connection.node.ts';
import type { ServiceHealth } from '../loyalty/service-health.node.ts';
import { toVoucherView } from '../shopper/views.std.ts';
import type { Redeemed, RedemptionService, VoucherClient } from '../vouchers/redemption-service.node.ts';

/** The bridge calls of a voucher's redemption, and the platform client they go through. */

/** Each call goes to the platform configured now, and tells health how it went. */
export function trackedVoucherClient(connection: PlatformConnection, health: ServiceHealth): VoucherClient {
  return {
    findVoucher: (input) => health.track(connection.client().findVoucher(input)),
    lockVoucher: (input) => health.track(connection.client().lockVoucher(input)),
    redeemVoucher: (input) => health.track(connection.client().redeemVoucher(input)),
    releaseVoucher: (input) => health.track(connection.client().releaseVoucher(input)),
    listVouchers: (input) => health.track(connection.client().listVouchers(input)),
  };
}

export function createVoucherHandlers(options: {
  redemptions: RedemptionService;
  visit: VisitLog;
  /** Runs a shopper's action within its time budget. */
  shopperAction: <T>(action: () => Promise<T>) => Promise<T>;
}): InputOnlyHandlers<'lockVoucher' | 'redeemVoucher' | 'releaseVoucher' | 'endVisit'> {
  const { redemptions, visit, shopperAction } = options;
  return {
    lockVoucher: ({ voucherUuid, code }) =>
      shopperAction(async () => {
        const lock = await redemptions.lock(code);
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
      await settleVisit(redemptions, visit);
      return null;
    },
  };
}

/** The visit is over: every lock this kiosk holds is given back, and its log lines are untagged. */
export async function settleVisit(redemptions: RedemptionService, visit: VisitLog): Promise<void> {
  await redemptions.releaseAll('idle');
  visit.end();
}

/** A redemption as the shopper screens show it: cut down to the voucher view. */
function redeemedView({ redeemedAt, voucher }: Redeemed) {
  return { outcome: 'redeemed' as const, redeemedAt, voucher: toVoucherView(voucher) };
}
