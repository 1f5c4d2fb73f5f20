import type { z } from 'zod';
import type { CreatePortalSessionBody, CreateRedeemGiftcardsPortalSessionBody } from '../api/portal-sessions.std.ts';
import { httpError } from './errors.std.ts';
import { randomUuid } from './ids.std.ts';
import { findContact, requireContact, requireShop } from './lookups.std.ts';
import type { PortalSession, PortalSessionType, SandboxState } from './state.std.ts';
import { formatTimestamp } from './timestamps.std.ts';

/** A validated create body: the request schemas have filled in every default. */
export type PortalSessionBody = z.output<typeof CreatePortalSessionBody | typeof CreateRedeemGiftcardsPortalSessionBody>;

export function createPortalSession(
  state: SandboxState,
  now: number,
  origin: string,
  type: PortalSessionType,
  body: PortalSessionBody,
) {
  const { shop_uuid, contact_uuid, ...settings } = body;
  requireShop(state, shop_uuid);
  if (contact_uuid) requireContact(state, contact_uuid);
  const session: PortalSession = {
    uuid: randomUuid(),
    type,
    shop_uuid,
    contact_uuid: contact_uuid ?? null,
    settings,
    created_at: now,
  };
  state.portal_sessions.push(session);
  return { ...portalSessionView(state, origin, session), events: [] };
}

export function getPortalSession(state: SandboxState, origin: string, uuid: string) {
  return portalSessionView(state, origin, requirePortalSession(state, uuid));
}

function requirePortalSession(state: SandboxState, uuid: string): PortalSession {
  const session = state.portal_sessions.find((candidate) => candidate.uuid === uuid);
  if (!session) throw httpError(404, 'Portal session not found.');
  return session;
}

function portalSessionUrl(origin: string, uuid: string): string {
  return `${origin}/portal-sessions?uuid=${encodeURIComponent(uuid)}`;
}

/** The session as the platform writes it, plus the sandbox extras `type` and `settings`. */
function portalSessionView(state: SandboxState, origin: string, session: PortalSession) {
  const shop = requireShop(state, session.shop_uuid);
  const contact = findContact(state, session.contact_uuid);
  return {
    uuid: session.uuid,
    url: portalSessionUrl(origin, session.uuid),
    contact: contact ? { uuid: contact.uuid } : null,
    shop: { id: shop.id, uuid: shop.uuid, reference: shop.reference, name: shop.name },
    created_at: formatTimestamp(session.created_at),
    type: session.type,
    settings: { ...session.settings },
  };
}
