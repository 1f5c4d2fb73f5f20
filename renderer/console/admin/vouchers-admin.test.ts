import { describe, expect, it } from 'vitest';
import { adminVoucher } from '../../../test/support/factories.std.ts';
import { FakeBridge, ok, refused } from '../../fake-bridge.test-support.ts';
import { VouchersAdmin } from './vouchers-admin.svelte.ts';

const COFFEE = adminVoucher('COFFEE', ['p2', 'Gratis koffie'], ['c1', 'sanne@example.nl']);
const PIE = adminVoucher('PIE', ['p1', 'Appeltaart'], null);
const FOUND = { ...PIE, timesRedeemed: 0, totalRedemptionsAllowed: 1 };

function adminWith() {
  const bridge = new FakeBridge({
    adminListVouchers: ok('adminListVouchers', { vouchers: [COFFEE], page: 1, lastPage: 1, total: 1 }),
    adminFindVoucher: ok('adminFindVoucher', FOUND),
    adminCreateVoucher: ok('adminCreateVoucher', PIE),
    adminUpdateVoucher: ok('adminUpdateVoucher', PIE),
    adminListRewardAttributes: ok('adminListRewardAttributes', []),
    adminCreateRewardAttribute: ok('adminCreateRewardAttribute', {
      name: 'size',
      label: 'Size',
      description: '',
      type: 'text',
      fieldType: 'text',
      placeholder: null,
      options: [],
      isServiceDefined: false,
      isSoftReadOnly: false,
      isHardReadOnly: false,
    }),
  });
  const through: string[] = [];
  const admin = new VouchersAdmin({ bridge: bridge.api, call: (run) => (through.push('console'), run()) });
  return { bridge, admin, through };
}

describe('the vouchers admin', () => {
  it('offers the promotions and contacts of every voucher listed, found or created, once each', async () => {
    const { bridge, admin } = adminWith();
    await admin.list({ page: 1, limit: 25 });
    expect(admin.promotions).toEqual([{ uuid: 'p2', label: 'Gratis koffie' }]);
    expect(admin.contacts).toEqual([{ uuid: 'c1', label: 's•••@example.nl (c1)' }]);

    await admin.find('PIE');
    await admin.find('PIE');
    expect(admin.promotions.map((choice) => choice.label)).toEqual(['Appeltaart', 'Gratis koffie']);
    expect(admin.contacts).toEqual([{ uuid: 'c1', label: 's•••@example.nl (c1)' }]);

    bridge.answer('adminFindVoucher', refused('not_found'));
    await admin.find('GONE');
    expect(admin.promotions).toHaveLength(2);
  });

  it('shows a created voucher as found (with its counts), through the console; as created when the find fails', async () => {
    const { bridge, admin, through } = adminWith();
    expect(await admin.afterCreate(PIE)).toEqual(FOUND);
    expect(bridge.inputsOf('adminFindVoucher')).toEqual([{ code: 'PIE' }]);
    expect(through).toEqual(['console']);

    bridge.answer('adminFindVoucher', refused('network'));
    expect(await admin.afterCreate(PIE)).toEqual(PIE);
  });
});
