import type { CallHandlers } from '../bridge/dispatcher.std.ts';
import { BridgeFailure } from '../bridge/dispatcher.std.ts';
import type { ConfigStore } from '../config/config-store.node.ts';
import type { PlatformConnection } from '../loyalty/platform-connection.node.ts';
import { toAdminRewardAttribute, toAdminVoucher } from '../manager/admin-views.std.ts';

/**
 * Voucher and reward-attribute admin against the connected platform, in the console's views.
 * Reward attributes are account-wide (one change reaches every store): only where IT turned on
 * console.platformAdmin.
 */
export function createPlatformAdminHandlers({ connection, config }: { connection: PlatformConnection; config: ConfigStore }) {
  const client = () => connection.client();
  const platformAdmin = () => {
    if (!config.get().console.platformAdmin) {
      throw new BridgeFailure('forbidden', 'reward attributes are account-wide: IT opens them on a kiosk with console.platformAdmin');
    }
    return client();
  };
  return {
    adminListVouchers: async (query) => {
      const answer = await client().listVouchers(query);
      return {
        vouchers: answer.data.map(toAdminVoucher),
        page: answer.meta.current_page,
        lastPage: answer.meta.last_page,
        total: answer.meta.total,
      };
    },
    adminFindVoucher: async ({ code }) => toAdminVoucher((await client().findVoucher({ code })).data),
    adminCreateVoucher: async (body) => toAdminVoucher((await client().createVoucher(body)).data),
    adminUpdateVoucher: async ({ voucherUuid, ...body }) =>
      toAdminVoucher((await client().updateVoucher({ voucher_uuid: voucherUuid, ...body })).data),
    adminListRewardAttributes: async () => (await platformAdmin().listRewardAttributes()).data.map(toAdminRewardAttribute),
    adminCreateRewardAttribute: async (body) => {
      await platformAdmin().createRewardAttribute(body);
      // The list gives the attribute in the one shape the console shows (the create answer differs).
      const created = (await client().listRewardAttributes()).data.find((item) => item.name === body.name);
      if (!created) throw new BridgeFailure('bad_response', 'the new attribute is not in the list');
      return toAdminRewardAttribute(created);
    },
  } satisfies Partial<CallHandlers>;
}
