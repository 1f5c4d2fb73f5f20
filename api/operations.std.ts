import { z } from 'zod';
import { ContactIdentifierResponse, ContactParams, ContactResponse, CreateContactBody } from './contacts.std.ts';
import { CreateContactIdentifierBody, CreditBalanceResponse } from './contacts.std.ts';
import { FindContactByEmailQuery, FindContactIdentifierQuery } from './contacts.std.ts';
import {
  CreatePortalSessionBody,
  CreateRedeemGiftcardsPortalSessionBody,
  CreatedPortalSessionResponse,
  PortalSessionParams,
  PortalSessionResponse,
} from './portal-sessions.std.ts';
import { CreateRewardAttributeBody, CreatedRewardAttribute, RewardAttributeListResponse } from './reward-attributes.std.ts';
import {
  CheckVoucherValidityBody,
  CreateVoucherBody,
  FindVoucherQuery,
  ListVouchersQuery,
  RedeemVoucherBody,
  RedeemedVoucherResponse,
  ReleaseVoucherBody,
  UpdateVoucherBody,
  VoucherListResponse,
  VoucherLockResponse,
  VoucherParams,
  VoucherResponse,
  VoucherValidityResponse,
  VoucherWithRedemptionsResponse,
} from './vouchers.std.ts';

export { ErrorBody, platformErrorByCode, platformErrors } from './errors.std.ts';
export type { PlatformError, PlatformErrorCategory, PlatformErrorCode, PlatformErrorName } from './errors.std.ts';

/** Which credential goes in the Bearer value. */
export type AuthScheme = 'api_key' | 'access_token' | 'personal_access_token';
export type HttpMethod = 'GET' | 'POST' | 'PUT';

/** One operation of the platform API, as the spec describes it. */
export interface OperationSpec {
  method: HttpMethod;
  /** Relative to base_url, with `{param}` placeholders. */
  path: string;
  /** Accepted credentials, most preferred first. */
  auth: readonly AuthScheme[];
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodObject;
  /** The whole answer, envelope included. */
  response: z.ZodType;
  summary: string;
}


/** Names each operation after its key, keeping every schema's precise type. */
function defineOperations<const Specs extends Record<string, OperationSpec>>(
  specs: Specs,
): { [Id in keyof Specs & string]: Specs[Id] & { id: Id } } {
  const entries = Object.entries(specs).map(([id, spec]) => [id, { id, ...spec }]);
  return Object.fromEntries(entries) as { [Id in keyof Specs & string]: Specs[Id] & { id: Id } };
}

// The spec accepts the access token or the API key for portal sessions; the token is preferred.
const portalSessionAuth = ['access_token', 'api_key'] as const;
const apiKey = ['api_key'] as const;

/** Every create-portal-session variant but redeem-giftcards takes the same body and answer. */
function createPortalSessionOperation(path: string, summary: string) {
  return {
    method: 'POST',
    path,
    auth: portalSessionAuth,
    body: CreatePortalSessionBody,
    response: CreatedPortalSessionResponse,
    summary,
  } as const;
}

export const operations = defineOperations({
  getPortalSession: {
    method: 'GET',
    path: '/portal-sessions/{portal_session_uuid}',
    auth: portalSessionAuth,
    params: PortalSessionParams,
    response: PortalSessionResponse,
    summary: 'Get Portal Session',
  },
  createPortalSession: createPortalSessionOperation('/portal-sessions', 'Create Portal Session'),
  createCreditReceptionPortalSession: createPortalSessionOperation(
    '/portal-sessions/credit-reception',
    'Create Credit Reception Portal Session',
  ),
  createRedeemGiftcardsPortalSession: {
    method: 'POST',
    path: '/portal-sessions/redeem-giftcards',
    auth: portalSessionAuth,
    body: CreateRedeemGiftcardsPortalSessionBody,
    response: CreatedPortalSessionResponse,
    summary: 'Create Redeem Giftcard Portal Session',
  },
  createTopUpGiftcardsPortalSession: createPortalSessionOperation(
    '/portal-sessions/top-up-giftcards',
    'Create Top Up Giftcard Portal Session',
  ),
  createPayPrepaidPortalSession: createPortalSessionOperation(
    '/portal-sessions/pay-prepaid',
    'Create Pay Prepaid Portal Session',
  ),
  createTopUpPrepaidPortalSession: createPortalSessionOperation(
    '/portal-sessions/top-up-prepaid',
    'Create Top Up Prepaid Portal Session',
  ),
  createVoucherPortalSession: createPortalSessionOperation('/portal-sessions/vouchers', 'Create Voucher Portal Session'),
  listVouchers: {
    method: 'GET',
    path: '/vouchers',
    auth: apiKey,
    query: ListVouchersQuery,
    response: VoucherListResponse,
    summary: 'List Vouchers',
  },
  findVoucher: {
    method: 'GET',
    path: '/vouchers/find',
    auth: apiKey,
    query: FindVoucherQuery,
    response: VoucherWithRedemptionsResponse,
    summary: 'Find Voucher by code',
  },
  createVoucher: {
    method: 'POST',
    path: '/vouchers',
    auth: apiKey,
    body: CreateVoucherBody,
    response: VoucherResponse,
    summary: 'Create Voucher',
  },
  updateVoucher: {
    method: 'PUT',
    path: '/vouchers/{voucher_uuid}',
    auth: apiKey,
    params: VoucherParams,
    body: UpdateVoucherBody,
    response: VoucherWithRedemptionsResponse,
    summary: 'Update Voucher (activate or deactivate)',
  },
  checkVoucherValidity: {
    method: 'POST',
    path: '/v3/oauth/clients/vouchers/{voucher_uuid}/validate',
    auth: ['personal_access_token'],
    params: VoucherParams,
    // The spec leaves body or query open: clients send a JSON body, the sandbox also reads the query.
    body: CheckVoucherValidityBody,
    response: VoucherValidityResponse,
    summary: 'Check Voucher Validity',
  },
  redeemVoucher: {
    method: 'POST',
    path: '/vouchers/redeem',
    auth: apiKey,
    body: RedeemVoucherBody,
    response: RedeemedVoucherResponse,
    summary: 'Redeem Voucher',
  },
  lockVoucher: {
    method: 'POST',
    path: '/vouchers/{voucher_uuid}/lock',
    auth: apiKey,
    params: VoucherParams,
    response: VoucherLockResponse,
    summary: 'Lock Voucher',
  },
  releaseVoucher: {
    method: 'POST',
    path: '/vouchers/{voucher_uuid}/release',
    auth: apiKey,
    params: VoucherParams,
    body: ReleaseVoucherBody,
    response: VoucherLockResponse,
    summary: 'Release Voucher',
  },
  listRewardAttributes: {
    method: 'GET',
    path: '/reward-attributes',
    auth: apiKey,
    response: RewardAttributeListResponse,
    summary: 'List Reward Attributes',
  },
  createRewardAttribute: {
    method: 'POST',
    path: '/reward-attributes',
    auth: apiKey,
    body: CreateRewardAttributeBody,
    response: CreatedRewardAttribute,
    summary: 'Create Reward Attribute (answer not wrapped in the envelope)',
  },
  findContactIdentifier: {
    method: 'GET',
    path: '/contact-identifiers/find',
    auth: apiKey,
    query: FindContactIdentifierQuery,
    response: ContactIdentifierResponse,
    summary: 'Find a contact identifier (loyalty card / QR value)',
  },
  findContactByEmail: {
    method: 'GET',
    path: '/contacts/find-one-by',
    auth: apiKey,
    query: FindContactByEmailQuery,
    response: ContactResponse,
    summary: 'Find a contact by e-mail address',
  },
  createContact: {
    method: 'POST',
    path: '/contacts',
    auth: apiKey,
    body: CreateContactBody,
    response: ContactResponse,
    summary: 'Register a new contact',
  },
  createContactIdentifier: {
    method: 'POST',
    path: '/contact-identifiers',
    auth: apiKey,
    body: CreateContactIdentifierBody,
    response: ContactIdentifierResponse,
    summary: 'Link a contact identifier (card) to a contact',
  },
  getCreditBalance: {
    method: 'GET',
    path: '/contacts/{contact_uuid}/credit-balance',
    auth: apiKey,
    params: ContactParams,
    response: CreditBalanceResponse,
    summary: 'Get the credit balance of a contact',
  },
});

export type Operations = typeof operations;
export type OperationId = keyof Operations;
/** Any operation of the table, without its precise schema types. */
export type Operation = OperationSpec & { id: OperationId };
