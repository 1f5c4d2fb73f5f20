import { z } from 'zod';
import { Timestamp, Uuid, envelope } from './common.std.ts';

/** Portal sessions: the platform-hosted pages a contact uses to identify, pay or top up. */

export const Shop = z
  .looseObject({
    id: z.number().int(),
    uuid: z.string(),
    reference: z.string().nullable(),
    name: z.string(),
  })
  .meta({ id: 'Shop' });
export type Shop = z.output<typeof Shop>;

export const PortalSession = z
  .looseObject({
    uuid: z.string(),
    url: z.string().describe('Page of the session; carries the session uuid as query parameter `uuid`'),
    // Sessions created without a contact may have none yet; accept that rather than fail the answer.
    contact: z.looseObject({ uuid: z.string().nullable() }).nullable(),
    shop: Shop,
    created_at: Timestamp,
  })
  .meta({ id: 'PortalSession' });
export type PortalSession = z.output<typeof PortalSession>;

/** Create answers add `events` (always empty so far); the get answer has none. */
export const CreatedPortalSession = PortalSession.extend({ events: z.array(z.unknown()) }).meta({
  id: 'CreatedPortalSession',
});
export type CreatedPortalSession = z.output<typeof CreatedPortalSession>;

export const ScannerType = z.enum(['camera', 'hand_scanner']);
export const FacingMode = z.enum(['user', 'environment']);
export const IdentificationMethod = z.enum(['email', 'identifier']);

export const CreatePortalSessionBody = z
  .strictObject({
    shop_uuid: Uuid,
    contact_uuid: Uuid.optional(),
    scanner_type: ScannerType.default('camera'),
    enable_email_identification: z.boolean().default(false),
    enable_registration: z.boolean().default(false),
    enable_on_screen_keyboard: z.boolean().default(false),
    camera_service: z.literal([1, 2, 3]).default(3),
    facing_mode: FacingMode.default('user').describe('user: front camera, environment: back camera'),
    primary_identification_method: IdentificationMethod.default('identifier'),
  })
  .meta({ id: 'CreatePortalSessionBody' });
export type CreatePortalSessionBody = z.input<typeof CreatePortalSessionBody>;

export const CreateRedeemGiftcardsPortalSessionBody = CreatePortalSessionBody.extend({
  amount_in_cents: z.number().int().min(1).describe('Purchase amount in minor currency units'),
  allow_multiple_giftcards: z.boolean().default(true),
}).meta({ id: 'CreateRedeemGiftcardsPortalSessionBody' });
export type CreateRedeemGiftcardsPortalSessionBody = z.input<typeof CreateRedeemGiftcardsPortalSessionBody>;

export const PortalSessionParams = z.strictObject({ portal_session_uuid: Uuid });

export const PortalSessionResponse = envelope(PortalSession);
export const CreatedPortalSessionResponse = envelope(CreatedPortalSession);
