import { describe, expect, it } from 'vitest';
import { toVoucherView } from './views.std.ts';
import type { VoucherWithRedemptions } from '../../api/vouchers.std.ts';

const voucher: VoucherWithRedemptions = {
  uuid: '5b0b7a3e-1f39-4a58-9d1b-3f2a6f1c9e01',
  code: 'KOFFIE24',
  status: 'ACTIVE',
  name: '',
  description: '',
  expiration_date: '2026-12-31T23:59:59+00:00',
  activation_date: '2026-01-01T00:00:00+00:00',
  redeemed_at: null,
  is_redeemed: false,
  attributes: {},
  contact: { uuid: '0b6a1c3e-7d0e-4d57-8a42-5f1f3f3e2a10', email: 'sanne.devries@example.nl' },
  promotion: {
    uuid: 'a1d2c3b4-0000-4000-8000-000000000001',
    name: 'Gratis koffie',
    description: 'Een gratis kop koffie.',
    voucher_limit: 10,
    limit_per_contact: null,
    expiration_duration: null,
    media: { type: 'emoji', value: '☕' },
  },
  redemptions_remaining: 2,
  times_redeemed: 1,
  total_redemptions_allowed: 3,
};

describe('toVoucherView', () => {
  it('falls back to the promotion for name and description and keeps the counters', () => {
    expect(toVoucherView(voucher)).toMatchObject({
      name: 'Gratis koffie',
      description: 'Een gratis kop koffie.',
      media: { kind: 'emoji', value: '☕' },
      redemptionsLeft: 2,
      totalRedemptions: 3,
      hasContact: true,
    });
  });
  it('never passes the contact e-mail on', () => {
    expect(JSON.stringify(toVoucherView(voucher))).not.toContain('sanne');
  });
  it('drops media the kiosk cannot show safely', () => {
    const http = { ...voucher, promotion: { ...voucher.promotion, media: { type: 'image', value: 'http://tracker.example/x.png' } } };
    const script = { ...voucher, promotion: { ...voucher.promotion, media: { type: 'image', value: 'javascript:alert(1)' } } };
    expect(toVoucherView(http).media).toBeNull();
    expect(toVoucherView(script).media).toBeNull();
    const https = { ...voucher, promotion: { ...voucher.promotion, media: { type: 'image', value: 'https://cdn.example/a.png' } } };
    expect(toVoucherView(https).media).toEqual({ kind: 'image', value: 'https://cdn.example/a.png' });
  });
  it('leaves counters null when the answer has none (list answers)', () => {
    const { redemptions_remaining, times_redeemed, total_redemptions_allowed, ...listed } = voucher;
    expect(toVoucherView(listed)).toMatchObject({ redemptionsLeft: null, totalRedemptions: null });
  });
});
