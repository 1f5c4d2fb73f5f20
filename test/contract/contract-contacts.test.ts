import { describe, expect, it } from 'vitest';
import { contractSuite, expectInvalid, expectRefused, lastStatus } from './contract.test-support.ts';

/** The five contact endpoints of platform-notes.md through the client. */

const suite = contractSuite();
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

const findCard = (value: string) => suite.client.findContactIdentifier({ contact_identifier_value: value });
const cardOwner = async (value: string) => (await findCard(value)).data.contact?.uuid;
const link = (value: string, contact: string) =>
  suite.client.createContactIdentifier({ contact_identifier_value: value, contact_uuid: contact });
const register = async (email: string) => (await suite.client.createContact({ email })).data.uuid;

describe('identifying a contact', () => {
  it('finds a card with its contact; 60003 when unknown, 60004 when inactive', async () => {
    const sanne = suite.sandbox.manifest.contacts.find((contact) => contact.email === 'sanne.devries@example.nl')!;
    const answer = await findCard(sanne.identifiers[0]!);
    expect(lastStatus()).toBe(200);
    expect(answer.data).toMatchObject({ active: true, contact: { uuid: sanne.uuid, email: sanne.email } });
    await expectRefused(findCard('0000000000000'), 'not_found', 404, 60003);
    await expectRefused(findCard(suite.sandbox.manifest.inactive_identifiers[0]!), 'conflict', 409, 60004);
    await expectInvalid(suite.loose.findContactIdentifier({}), 'contact_identifier_value');
    expect((await findCard(suite.sandbox.manifest.unlinked_identifiers[0]!)).data.contact).toBeNull();
  });

  it('finds a contact by e-mail, ignoring case; 55031 when unknown', async () => {
    const answer = await suite.client.findContactByEmail({ email: 'Daan.Jansen@example.nl' });
    expect(answer.data).toMatchObject({ uuid: suite.sandbox.contactUuid('daan'), email: 'daan.jansen@example.nl' });
    await expectRefused(suite.client.findContactByEmail({ email: 'niemand@example.nl' }), 'not_found', 404, 55031);
    await expectInvalid(suite.client.findContactByEmail({ email: 'no-at-sign' }), 'email');
  });

  it('gives the credit balance; 55031 for an unknown contact', async () => {
    const answer = await suite.client.getCreditBalance({ contact_uuid: suite.sandbox.contactUuid('olivia') });
    expect(answer.data).toEqual({ balance: 2100 });
    await expectRefused(suite.client.getCreditBalance({ contact_uuid: UNKNOWN }), 'not_found', 404, 55031);
  });
});

describe('registering', () => {
  it('creates a contact once per e-mail address (60005)', async () => {
    const answer = await suite.client.createContact({ email: 'lieke.mulder@example.nl' });
    expect(lastStatus()).toBe(201);
    expect(answer.data).toMatchObject({ email: 'lieke.mulder@example.nl', uuid: expect.any(String) });
    const found = await suite.client.findContactByEmail({ email: 'lieke.mulder@example.nl' });
    expect(found.data.uuid).toBe(answer.data.uuid);
    await expectRefused(suite.client.createContact({ email: 'LIEKE.MULDER@example.nl' }), 'conflict', 409, 60005);
    await expectInvalid(suite.loose.createContact({}), 'email');
    expect((await suite.client.getCreditBalance({ contact_uuid: answer.data.uuid })).data.balance).toBe(0);
  });

  it('links a new card, links an unlinked one, refuses a card held by anyone (60014, 60006)', async () => {
    const contact = await register('tom.dekker@example.nl');
    const fresh = await link('2710042999998', contact);
    expect(lastStatus()).toBe(201);
    expect(fresh.data).toMatchObject({ value: '2710042999998', active: true, contact: { uuid: contact } });
    expect(await cardOwner('2710042999998')).toBe(contact);

    const unlinked = suite.sandbox.manifest.unlinked_identifiers[0]!;
    expect((await link(unlinked, contact)).data.contact?.uuid).toBe(contact);
    expect(await cardOwner(unlinked)).toBe(contact);

    await expectRefused(link(unlinked, suite.sandbox.contactUuid('daan')), 'conflict', 409, 60014);
    await expectRefused(link(unlinked, contact), 'conflict', 409, 60006);
    await expectRefused(link('2710042000001', UNKNOWN), 'not_found', 404, 55031);
    await expectInvalid(suite.loose.createContactIdentifier({ contact_uuid: contact }), 'contact_identifier_value');
  });
});
