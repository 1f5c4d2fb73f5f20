import type { PlatformConnection } from '../loyalty/platform-connection.node.ts';
import type { ServiceHealth } from '../loyalty/service-health.node.ts';
import type { VoucherClient } from './redemption-service.node.ts';

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
