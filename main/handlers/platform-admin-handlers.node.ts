import type { CallHandlers } from '../bridge/dispatcher.std.ts';
import { BridgeFailure } from '../bridge/dispatcher.std.ts';
import type { PlatformConnection } from '../loyalty/platform-connection.node.ts';
import { toAdminRewardAttribute, toAdminVoucher } from '../manager/admin-views.std.ts';

/** Voucher and reward-attribute admin against the connected platform, in the console's views. */
export function createPlatformAdminHandlers({ connection }: { connection: PlatformConnection }) {
  const client = () => connection.client();
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
    adminListRewardAttributes: async () => (await client().listRewardAttributes()).data.map(toAdminRewardAttribute),
    adminCreateRewardAttribute: async (body) => {
      await client().createRewardAttribute(body);
      // The list gives the attribute in the one shape the console shows (the create answer differs).
      const created = (await client().listRewardAttributes()).data.find((item) => item.name === body.name);
      if (!created) throw new BridgeFailure('bad_response', 'the new attribute is not in the list');
      return toAdminRewardAttribute(created);
    },
  } satisfies Partial<CallHandlers>;
}
