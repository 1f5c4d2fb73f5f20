import type { z } from 'zod';
import { advanceClock } from './clock.std.ts';
import {
  createContact,
  createContactIdentifier,
  findContactByEmail,
  findContactIdentifier,
  getCreditBalance,
} from './contacts.std.ts';
import { createPortalSession, getPortalSession, type PortalSessionBody } from './portal-sessions.std.ts';
import { createRewardAttribute, rewardAttributeListItem } from './reward-attributes.std.ts';
import type { RoutedOperationId, RoutedOperations } from './routes.std.ts';
import type { PortalSessionType, SandboxState } from './state.std.ts';
import { checkVoucherValidity, lockVoucher, redeemVoucher, releaseVoucher } from './voucher-actions.std.ts';
import { createVoucher, findVoucher, listVouchers, updateVoucher } from './vouchers.std.ts';

/**
 * One handler per routed operation. A handler runs synchronously against the state, checks
 * everything before it changes anything, and answers 201 for creates and 200 otherwise.
 */
export interface HandlerContext {
  state: SandboxState;
  /** The sandbox clock, read once per request. */
  now: number;
  /** `http://127.0.0.1:<port>`, for portal session urls. */
  origin: string;
  /** What the sandbox's control routes set for this run (not persisted): a rate limit to play. */
  control: SandboxControl;
}

/** Platform calls still to be refused with 429, the Retry-After they carry, and the paths they are limited to (null: any). */
export interface SandboxControl {
  rateLimit: { requests: number; retryAfter: number | string; paths: string[] | null };
}

type Part<Id extends RoutedOperationId, Key extends 'params' | 'query' | 'body'> =
  RoutedOperations[Id] extends { [K in Key]: infer Schema extends z.ZodType } ? z.output<Schema> : undefined;

export interface HandlerInput<Id extends RoutedOperationId> {
  params: Part<Id, 'params'>;
  query: Part<Id, 'query'>;
  body: Part<Id, 'body'>;
}

export interface Answer<Id extends RoutedOperationId = RoutedOperationId> {
  status: 200 | 201;
  body: z.input<RoutedOperations[Id]['response']>;
}

type Handler<Id extends RoutedOperationId> = (input: HandlerInput<Id>, context: HandlerContext) => Answer<Id>;

function ok<Data>(data: Data) {
  return { status: 200 as const, body: { data, meta: [] as [] } };
}

function created<Data>(data: Data) {
  return { status: 201 as const, body: { data, meta: [] as [] } };
}

function sessionCreator(type: PortalSessionType) {
  return ({ body }: { body: PortalSessionBody }, { state, now, origin }: HandlerContext) =>
    created(createPortalSession(state, now, origin, type, body));
}

export const handlers: { [Id in RoutedOperationId]: Handler<Id> } = {
  getPortalSession: ({ params }, { state, origin }) => ok(getPortalSession(state, origin, params.portal_session_uuid)),
  createPortalSession: sessionCreator('default'),
  createCreditReceptionPortalSession: sessionCreator('credit_reception'),
  createRedeemGiftcardsPortalSession: sessionCreator('redeem_giftcards'),
  createTopUpGiftcardsPortalSession: sessionCreator('top_up_giftcards'),
  createPayPrepaidPortalSession: sessionCreator('pay_prepaid'),
  createTopUpPrepaidPortalSession: sessionCreator('top_up_prepaid'),
  createVoucherPortalSession: sessionCreator('vouchers'),

  listVouchers: ({ query }, { state, now }) => ({ status: 200, body: listVouchers(state, now, query) }),
  findVoucher: ({ query }, { state, now }) => ok(findVoucher(state, now, query.code)),
  createVoucher: ({ body }, { state, now }) => created(createVoucher(state, now, body)),
  updateVoucher: ({ params, body }, { state, now }) => ok(updateVoucher(state, now, params.voucher_uuid, body)),
  checkVoucherValidity: ({ params, body }, { state, now }) =>
    ok(checkVoucherValidity(state, now, params.voucher_uuid, body)),
  redeemVoucher: ({ body }, { state, now }) => ok(redeemVoucher(state, now, body)),
  lockVoucher: ({ params }, { state, now }) => ok(lockVoucher(state, now, params.voucher_uuid)),
  releaseVoucher: ({ params, body }, { state, now }) =>
    ok(releaseVoucher(state, now, params.voucher_uuid, body.release_key)),

  listRewardAttributes: (_input, { state }) => ({
    status: 200,
    body: { data: state.reward_attributes.map(rewardAttributeListItem) },
  }),
  createRewardAttribute: ({ body }, { state }) => ({ status: 201, body: createRewardAttribute(state.reward_attributes, body) }),

  findContactIdentifier: ({ query }, { state }) => ok(findContactIdentifier(state, query.contact_identifier_value)),
  findContactByEmail: ({ query }, { state }) => ok(findContactByEmail(state, query.email)),
  createContact: ({ body }, { state }) => created(createContact(state, body.email)),
  createContactIdentifier: ({ body }, { state }) =>
    created(createContactIdentifier(state, body.contact_identifier_value, body.contact_uuid)),
  getCreditBalance: ({ params }, { state }) => ok(getCreditBalance(state, params.contact_uuid)),

  advanceClock: ({ body }, { state, now }) => ok(advanceClock(state, now, body.advance_seconds)),
  rateLimit: ({ body }, { control }) => {
    control.rateLimit = { requests: body.requests, retryAfter: body.retry_after, paths: body.paths ?? null };
    return ok({ requests: body.requests });
  },
};
