/**
 * Everything the sandbox knows, as persisted in `state.json`. Times are epoch milliseconds on the
 * sandbox clock, floored to the second. A voucher's status is not stored but derived at read time
 * (voucher-status.std.ts), so expiry, activation and lock expiry follow the clock by themselves.
 */
export const STATE_VERSION = 1;

export interface Credentials {
  api_key: string;
  access_token: string;
  personal_access_token: string;
}
export type CredentialKind = keyof Credentials;

export interface Shop {
  uuid: string;
  id: number;
  name: string;
  reference: string | null;
}

export interface Contact {
  uuid: string;
  email: string;
  firstname: string | null;
  lastname: string | null;
  credit_balance: number;
}

export interface ContactIdentifier {
  value: string;
  name: string;
  active: boolean;
  contact_uuid: string | null;
}

export interface Media {
  type: 'image' | 'emoji';
  value: string;
}

export interface Promotion {
  uuid: string;
  name: string;
  description: string;
  voucher_limit: number;
  limit_per_contact: number | null;
  expiration_duration: number | null;
  media: Media | null;
}

export type AttributeValue = string | number | boolean | null;

export interface VoucherLock {
  release_key: string;
  locked_at: number;
  unlocked_at: number | null;
  system_release_at: number | null;
}

export interface VoucherRedemption {
  uuid: string;
  created_at: number;
  shop_uuid: string;
  /** The voucher's contact, or the contact named at redemption for a voucher without one. */
  contact_uuid: string;
}

export interface StoredVoucher {
  uuid: string;
  code: string;
  promotion_uuid: string;
  contact_uuid: string | null;
  name: string;
  description: string;
  /** Only what Update Voucher sets; REDEEMED, EXPIRED, INACTIVE and LOCKED are derived. */
  status: 'ACTIVE' | 'DEACTIVATED';
  activation_date: number;
  expiration_date: number | null;
  total_redemptions_allowed: number;
  attributes: Record<string, AttributeValue>;
  redemptions: VoucherRedemption[];
  lock: VoucherLock | null;
}

// A type, not an interface: it must fit the wire schemas' open objects (index signatures).
export type RewardAttributeOption = {
  label: string;
  value: string | number;
};

export interface RewardAttribute {
  name: string;
  label: string;
  description: string;
  type: string;
  placeholder: string | null;
  options: RewardAttributeOption[];
  isServiceDefined: 0 | 1;
  isSoftReadOnly: 0 | 1;
  isHardReadOnly: 0 | 1;
}

/** What a session is for: which of the seven create operations made it (a sandbox extra). */
export type PortalSessionType =
  | 'default'
  | 'credit_reception'
  | 'redeem_giftcards'
  | 'top_up_giftcards'
  | 'pay_prepaid'
  | 'top_up_prepaid'
  | 'vouchers';

export interface PortalSession {
  uuid: string;
  type: PortalSessionType;
  shop_uuid: string;
  contact_uuid: string | null;
  /** Every body setting with defaults applied; a sandbox extra so tests can check them. */
  settings: Record<string, string | number | boolean>;
  created_at: number;
}

/** What the manifest lists as the seeded vouchers, frozen at seeding time. */
export interface SeededVoucher {
  uuid: string;
  code: string;
  status: string;
  contact_uuid: string | null;
  promotion_uuid: string;
}

export interface SandboxState {
  version: typeof STATE_VERSION;
  credentials: Credentials;
  /** How far the sandbox clock runs ahead of the wall clock (POST /_sandbox/clock). */
  clock_offset_ms: number;
  shops: Shop[];
  contacts: Contact[];
  identifiers: ContactIdentifier[];
  promotions: Promotion[];
  vouchers: StoredVoucher[];
  reward_attributes: RewardAttribute[];
  portal_sessions: PortalSession[];
  seeded_vouchers: SeededVoucher[];
}
