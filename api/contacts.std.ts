import { z } from 'zod';
import { Uuid, envelope } from './common.std.ts';

/**
 * The few contact endpoints a kiosk needs to identify a shopper (platform-notes.md). The notes
 * show only `data` in their answers, so `meta` is not required here.
 */

export const ContactRef = z.looseObject({ uuid: z.string(), email: z.string().nullable() }).meta({ id: 'ContactRef' });
export type ContactRef = z.output<typeof ContactRef>;

export const ContactIdentifier = z
  .looseObject({
    name: z.string().nullable(),
    value: z.string().describe('The card or QR value'),
    active: z.boolean(),
    contact: ContactRef.nullable(),
  })
  .meta({ id: 'ContactIdentifier' });
export type ContactIdentifier = z.output<typeof ContactIdentifier>;

export const CreditBalance = z.looseObject({ balance: z.number().int().describe('Credits') }).meta({ id: 'CreditBalance' });
export type CreditBalance = z.output<typeof CreditBalance>;

export const FindContactIdentifierQuery = z.strictObject({ contact_identifier_value: z.string().min(1) });
export const FindContactByEmailQuery = z.strictObject({ email: z.email() });
export const ContactParams = z.strictObject({ contact_uuid: Uuid });

export const CreateContactBody = z.strictObject({ email: z.email() }).meta({ id: 'CreateContactBody' });
export type CreateContactBody = z.input<typeof CreateContactBody>;

export const CreateContactIdentifierBody = z
  .strictObject({ contact_identifier_value: z.string().min(1), contact_uuid: Uuid })
  .meta({ id: 'CreateContactIdentifierBody' });
export type CreateContactIdentifierBody = z.input<typeof CreateContactIdentifierBody>;

function contactEnvelope<Data extends z.ZodType>(data: Data) {
  return envelope(data).partial({ meta: true });
}

export const ContactIdentifierResponse = contactEnvelope(ContactIdentifier);
export const ContactResponse = contactEnvelope(ContactRef);
export const CreditBalanceResponse = contactEnvelope(CreditBalance);
