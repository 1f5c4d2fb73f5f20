import { randomUuid } from './ids.std.ts';
import {
  STATE_VERSION,
  type Contact,
  type ContactIdentifier,
  type Credentials,
  type Promotion,
  type RewardAttribute,
  type SandboxState,
  type Shop,
  type StoredVoucher,
} from './state.std.ts';
import { voucherStatus } from './voucher-status.std.ts';

/**
 * The demo account a fresh data folder starts with: Dutch and English shops and shoppers,
 * vouchers in every state, reward attributes of varied types. Codes and card numbers are fixed
 * (so a trial script can name them); uuids are random per folder; dates are relative to `now`.
 */

const DAY = 24 * 60 * 60 * 1000;

const SHOPS: ReadonlyArray<Omit<Shop, 'uuid'>> = [
  { id: 1001, name: 'Amsterdam Centraal', reference: 'AMS-CS' },
  { id: 1002, name: 'Utrecht Hoog Catharijne', reference: 'UTR-HC' },
  { id: 1003, name: 'Rotterdam Markthal', reference: null },
];

type ContactKey = 'sanne' | 'daan' | 'emma' | 'olivia' | 'james';
type DemoContact = Omit<Contact, 'uuid'> & { card: string };
// Card numbers are EAN-13 with a valid check digit, like printed loyalty cards.
const CONTACTS: Record<ContactKey, DemoContact> = {
  sanne: { email: 'sanne.devries@example.nl', firstname: 'Sanne', lastname: 'de Vries', credit_balance: 1250, card: '2710042000132' },
  daan: { email: 'daan.jansen@example.nl', firstname: 'Daan', lastname: 'Jansen', credit_balance: 340, card: '2710042000279' },
  emma: { email: 'emma.bakker@example.nl', firstname: 'Emma', lastname: 'Bakker', credit_balance: 75, card: '2710042000316' },
  olivia: { email: 'olivia.smith@example.com', firstname: 'Olivia', lastname: 'Smith', credit_balance: 2100, card: '2710042000484' },
  james: { email: 'james.wilson@example.co.uk', firstname: 'James', lastname: 'Wilson', credit_balance: 560, card: '2710042000521' },
};

/** Sanne's previous card, reported lost: found, but inactive (60004). */
export const INACTIVE_CARD = '2710042000668';
/** A card handed out at the till but not registered to anyone yet. */
export const UNLINKED_CARD = '2710042000705';

const DISCOUNT_BADGE = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 120"><circle cx="60" cy="60" r="56" fill="#c2410c"/>' +
    '<text x="60" y="74" font-family="sans-serif" font-size="40" font-weight="700" fill="#fff" text-anchor="middle">10%</text></svg>',
)}`;

type PromotionKey = 'coffee' | 'discount' | 'welcome';
const PROMOTIONS: Record<PromotionKey, Omit<Promotion, 'uuid'>> = {
  coffee: {
    name: 'Gratis koffie',
    description: 'Een gratis kop koffie naar keuze bij je volgende bezoek.',
    voucher_limit: 1000,
    limit_per_contact: null,
    expiration_duration: null,
    media: { type: 'emoji', value: '☕' },
  },
  discount: {
    name: '10% discount',
    description: '10% off your entire purchase.',
    voucher_limit: 500,
    limit_per_contact: null,
    expiration_duration: null,
    media: { type: 'image', value: DISCOUNT_BADGE },
  },
  welcome: {
    name: 'Welcome gift',
    description: 'A small gift to welcome you as a new member.',
    voucher_limit: 0,
    limit_per_contact: 1,
    expiration_duration: null,
    media: null,
  },
};

type VoucherKind = 'active' | 'expiring' | 'redeemed' | 'expired' | 'deactivated' | 'inactive' | 'multi' | 'multi-used';
interface DemoVoucher {
  code: string;
  promotion: PromotionKey;
  contact: ContactKey | null;
  kind: VoucherKind;
  attributes?: StoredVoucher['attributes'];
}

const VOUCHERS: readonly DemoVoucher[] = [
  { code: 'KOFFIE24', promotion: 'coffee', contact: 'sanne', kind: 'active' },
  { code: 'KFQ7M2XA', promotion: 'coffee', contact: 'daan', kind: 'active' },
  { code: 'KF9R4TBZ', promotion: 'coffee', contact: null, kind: 'active' },
  { code: 'KRT10AMS', promotion: 'discount', contact: 'emma', kind: 'active' },
  { code: 'KRT10UTR', promotion: 'discount', contact: null, kind: 'active' },
  { code: 'WELKOM01', promotion: 'welcome', contact: 'olivia', kind: 'active' },
  { code: 'WELCOME2', promotion: 'welcome', contact: 'james', kind: 'active' },
  { code: 'WLK8H3PD', promotion: 'welcome', contact: null, kind: 'active' },
  { code: 'KRT5XP2N', promotion: 'discount', contact: 'sanne', kind: 'expiring' },
  { code: 'KFE3N7QA', promotion: 'coffee', contact: 'daan', kind: 'active', attributes: { campaign: 'lente', table: null } },
  { code: 'KFR2D8WM', promotion: 'coffee', contact: 'sanne', kind: 'redeemed' },
  { code: 'KRT6B4YH', promotion: 'discount', contact: null, kind: 'redeemed' },
  { code: 'KFX4E9JC', promotion: 'coffee', contact: 'emma', kind: 'expired' },
  { code: 'WLK5T2GR', promotion: 'welcome', contact: null, kind: 'expired' },
  { code: 'KRT9C3LU', promotion: 'discount', contact: 'olivia', kind: 'deactivated' },
  { code: 'KFD7H5SE', promotion: 'coffee', contact: null, kind: 'deactivated' },
  { code: 'KFN3W8VK', promotion: 'coffee', contact: 'james', kind: 'inactive' },
  { code: 'KRT4Q6ZF', promotion: 'discount', contact: null, kind: 'inactive' },
  { code: 'KOFFIE3X', promotion: 'coffee', contact: 'sanne', kind: 'multi' },
  { code: 'KRT3M9PA', promotion: 'discount', contact: 'daan', kind: 'multi-used' },
];

const REWARD_ATTRIBUTES: readonly RewardAttribute[] = [
  attribute('size', 'Maat', 'select', {
    description: 'Serving size',
    options: [
      { label: 'Klein', value: 1 },
      { label: 'Middel', value: 2 },
      { label: 'Groot', value: 3 },
    ],
  }),
  attribute('allergens', 'Allergenen', 'multi_select', {
    description: 'Allergens the reward contains',
    options: [
      { label: 'Gluten', value: 'gluten' },
      { label: 'Lactose', value: 'lactose' },
      { label: 'Noten', value: 'nuts' },
    ],
  }),
  attribute('colour', 'Kleur', 'color', { placeholder: '#1E3A8A' }),
  attribute('terms_url', 'Voorwaarden', 'url', { placeholder: 'https://example.nl/voorwaarden' }),
  attribute('available_until', 'Available until', 'date', { description: 'Last day the reward can be claimed' }),
  attribute('calories', 'Calories', 'number', { placeholder: '250' }),
  attribute('vegan', 'Vegan', 'boolean', {}),
  attribute('external_sku', 'SKU', 'identifier', {
    description: 'Article number in the till system',
    isServiceDefined: 1,
    isHardReadOnly: 1,
  }),
];

function attribute(name: string, label: string, type: string, extra: Partial<RewardAttribute>): RewardAttribute {
  return {
    name,
    label,
    type,
    description: '',
    placeholder: null,
    options: [],
    isServiceDefined: 0,
    isSoftReadOnly: 0,
    isHardReadOnly: 0,
    ...extra,
  };
}

export function seedDemoState(now: number, credentials: Credentials): SandboxState {
  const shops: Shop[] = SHOPS.map((shop) => ({ uuid: randomUuid(), ...shop }));
  const contacts = withUuids(CONTACTS);
  const promotions = withUuids(PROMOTIONS);
  const identifiers: ContactIdentifier[] = Object.values(contacts).map((contact) => ({
    value: contact.card,
    name: 'Loyalty card',
    active: true,
    contact_uuid: contact.uuid,
  }));
  identifiers.push(
    { value: INACTIVE_CARD, name: 'Loyalty card (lost)', active: false, contact_uuid: contacts.sanne.uuid },
    { value: UNLINKED_CARD, name: 'Loyalty card', active: true, contact_uuid: null },
  );
  const redeemingShop = shops[0]?.uuid ?? '';
  const vouchers = VOUCHERS.map((demo): StoredVoucher => {
    const promotion = promotions[demo.promotion];
    const contactUuid = demo.contact ? contacts[demo.contact].uuid : null;
    // Past redemptions of a voucher without a contact name the contact who used it.
    const redeemer = contactUuid ?? contacts.daan.uuid;
    return {
      uuid: randomUuid(),
      code: demo.code,
      promotion_uuid: promotion.uuid,
      contact_uuid: contactUuid,
      name: promotion.name,
      description: promotion.description,
      attributes: demo.attributes ?? {},
      lock: null,
      ...voucherTimeline(demo.kind, now, redeemingShop, redeemer),
    };
  });
  return {
    version: STATE_VERSION,
    credentials,
    clock_offset_ms: 0,
    shops,
    contacts: Object.values(contacts).map(({ card: _card, ...contact }) => contact),
    identifiers,
    promotions: Object.values(promotions),
    vouchers,
    reward_attributes: REWARD_ATTRIBUTES.map((item) => ({ ...item, options: [...item.options] })),
    portal_sessions: [],
    seeded_vouchers: vouchers.map((voucher) => ({
      uuid: voucher.uuid,
      code: voucher.code,
      status: voucherStatus(voucher, now),
      contact_uuid: voucher.contact_uuid,
      promotion_uuid: voucher.promotion_uuid,
    })),
  };
}

function withUuids<Key extends string, Fields extends object>(records: { [K in Key]: Fields }) {
  const entries = Object.entries<Fields>(records).map(([key, fields]) => [key, { uuid: randomUuid(), ...fields }]);
  return Object.fromEntries(entries) as { [K in Key]: Fields & { uuid: string } };
}

/** Dates, status and past redemptions that make a voucher read as `kind` at `now`. */
type Timeline = Pick<
  StoredVoucher,
  'status' | 'activation_date' | 'expiration_date' | 'total_redemptions_allowed' | 'redemptions'
>;

function voucherTimeline(kind: VoucherKind, now: number, shopUuid: string, redeemerUuid: string): Timeline {
  const redemption = (daysAgo: number) => ({
    uuid: randomUuid(),
    created_at: now - daysAgo * DAY,
    shop_uuid: shopUuid,
    contact_uuid: redeemerUuid,
  });
  const base: Timeline = {
    status: 'ACTIVE',
    activation_date: now - 14 * DAY,
    expiration_date: now + 60 * DAY,
    total_redemptions_allowed: 1,
    redemptions: [],
  };
  switch (kind) {
    case 'active':
      return base;
    case 'expiring':
      return { ...base, expiration_date: now + 2 * DAY };
    case 'redeemed':
      return { ...base, redemptions: [redemption(1)] };
    case 'expired':
      return { ...base, activation_date: now - 60 * DAY, expiration_date: now - 3 * DAY };
    case 'deactivated':
      return { ...base, status: 'DEACTIVATED' };
    case 'inactive':
      return { ...base, activation_date: now + 7 * DAY, expiration_date: now + 37 * DAY };
    case 'multi':
      return { ...base, total_redemptions_allowed: 3, expiration_date: null };
    case 'multi-used':
      return { ...base, total_redemptions_allowed: 3, redemptions: [redemption(2)] };
  }
}
