import { describe, expect, it } from 'vitest';
import type { AdminVoucher } from '../../../common/manager-views.std.ts';
import { contactsOf, promotionsOf, remember } from './choices.std.ts';

const voucher = (promotion: [string, string], contact: [string, string] | null): AdminVoucher => ({
  uuid: 'v',
  code: 'C',
  status: 'ACTIVE',
  name: promotion[1],
  promotion: { uuid: promotion[0], name: promotion[1] },
  contact: contact && { uuid: contact[0], email: contact[1] },
  activationDate: '2030-01-01T00:00:00+00:00',
  expirationDate: null,
  redeemedAt: null,
  timesRedeemed: null,
  totalRedemptionsAllowed: null,
  attributes: {},
});

describe('choices seen in vouchers', () => {
  it('offers each promotion and linked contact once, sorted by name, keeping earlier ones', () => {
    const first = [voucher(['p2', 'Gratis koffie'], ['c1', 'sanne@example.nl']), voucher(['p1', 'Appeltaart'], null)];
    const second = [voucher(['p2', 'Gratis koffie'], ['c2', 'bram@example.nl'])];
    const promotions = remember(remember([], promotionsOf(first)), promotionsOf(second));
    expect(promotions).toEqual([{ uuid: 'p1', label: 'Appeltaart' }, { uuid: 'p2', label: 'Gratis koffie' }]);
    const contacts = remember(contactsOf(first), contactsOf(second));
    expect(contacts.map((choice) => choice.label)).toEqual(['bram@example.nl', 'sanne@example.nl']);
  });

  it('takes a promotion’s latest name', () => {
    expect(remember([{ uuid: 'p1', label: 'Old' }], [{ uuid: 'p1', label: 'New' }])).toEqual([{ uuid: 'p1', label: 'New' }]);
  });
});
