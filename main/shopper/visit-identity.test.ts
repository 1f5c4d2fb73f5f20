import { describe, expect, it } from 'vitest';
import type { Voucher } from '../../api/vouchers.std.ts';
import { VisitIdentity } from './visit-identity.std.ts';

const voucher = (uuid: string, code: string) => ({ uuid, code, name: 'Free coffee', promotion: { uuid: 'p-1', name: 'Coffee' } }) as Voucher;

describe('the vouchers a visit was given', () => {
  it('are known by uuid and code together, as the platform gave them', () => {
    const visit = new VisitIdentity();
    visit.gave([voucher('v-1', 'KOFFIE24'), voucher('v-2', 'KRT10AMS')]);
    expect(visit.given('v-1', 'KOFFIE24')).toEqual({ uuid: 'v-1', code: 'KOFFIE24', name: 'Free coffee', promotionName: 'Coffee' });
    // A screen that pairs a uuid with another voucher's code, or names one never given, gets nothing: it is found.
    expect(visit.given('v-1', 'KRT10AMS')).toBeUndefined();
    expect(visit.given('v-3', 'KOFFIE24')).toBeUndefined();
  });

  it('are forgotten when the visit ends', () => {
    const visit = new VisitIdentity();
    visit.gave([voucher('v-1', 'KOFFIE24')]);
    visit.end();
    expect(visit.given('v-1', 'KOFFIE24')).toBeUndefined();
  });
});
