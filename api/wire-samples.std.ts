/**
 * Answers shaped like the spec's samples, for tests of the schemas and the client. Each carries
 * an extra field the spec does not list, as a real platform answer may.
 */

export const sampleVoucher = {
  uuid: '5b0e8a52-6f8e-4b8e-9a4c-0d7c1f3e2a10',
  code: 'KIOSK-7Q2W-9X4Z',
  status: 'ACTIVE',
  name: 'Free coffee',
  description: 'One regular coffee',
  expiration_date: null,
  activation_date: '2025-01-01T00:00:00+00:00',
  redeemed_at: null,
  is_redeemed: false,
  attributes: [],
  contact: { uuid: '0f4b5c3a-1d2e-4f60-8a7b-9c8d7e6f5a4b', email: 'jane.doe@example.com' },
  promotion: {
    uuid: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
    name: 'Coffee club',
    description: 'Coffee for members',
    voucher_limit: 1000,
    limit_per_contact: null,
    expiration_duration: null,
    media: { type: 'emoji', value: '☕' },
  },
  not_in_the_spec: true,
};

export const sampleVoucherWithRedemptions = {
  ...sampleVoucher,
  redemptions_remaining: 1,
  times_redeemed: 0,
  total_redemptions_allowed: 1,
};

export const sampleShop = { id: 7, uuid: 'e7f8a9b0-c1d2-4e3f-a4b5-c6d7e8f9a0b1', reference: null, name: 'Main street' };

export const samplePortalSession = {
  uuid: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
  url: 'https://portal.example.com/portal-sessions?uuid=3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
  contact: { uuid: sampleVoucher.contact.uuid },
  shop: sampleShop,
  created_at: '2025-01-01T09:00:00+00:00',
};

export const samplePagination = { current_page: 1, from: 1, last_page: 1, per_page: '30', to: 1, total: 1, path: '/vouchers' };
