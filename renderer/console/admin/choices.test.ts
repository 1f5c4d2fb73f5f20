import { describe, expect, it } from 'vitest';
import { adminVoucher } from '../../../test/support/factories.std.ts';
import { contactsOf, promotionsOf, remember } from './choices.std.ts';


describe('choices seen in vouchers', () => {
  it('offers each promotion and linked contact once, sorted by name, keeping earlier ones; a contact by its masked e-mail (#34 §2)', () => {
    const first = [adminVoucher('COFFEE', ['p2', 'Gratis koffie'], ['c1', 'sanne@example.nl']), adminVoucher('PIE', ['p1', 'Appeltaart'], null)];
    const second = [adminVoucher('COFFEE', ['p2', 'Gratis koffie'], ['c2', 'bram@example.nl'])];
    const promotions = remember(remember([], promotionsOf(first)), promotionsOf(second));
    expect(promotions).toEqual([{ uuid: 'p1', label: 'Appeltaart' }, { uuid: 'p2', label: 'Gratis koffie' }]);
    const contacts = remember(contactsOf(first), contactsOf(second));
    expect(contacts.map((choice) => choice.label)).toEqual(['b•••@example.nl (c2)', 's•••@example.nl (c1)']);
  });

  it('takes a promotion’s latest name', () => {
    expect(remember([{ uuid: 'p1', label: 'Old' }], [{ uuid: 'p1', label: 'New' }])).toEqual([{ uuid: 'p1', label: 'New' }]);
  });
});
