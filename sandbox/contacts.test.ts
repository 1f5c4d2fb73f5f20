import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INACTIVE_CARD } from './demo-data.std.ts';
import { expectError, TestSandbox } from './testing.test-support.ts';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await TestSandbox.start();
});
afterAll(() => sandbox.stop());

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const findCard = (value: string) => sandbox.call('findContactIdentifier', { query: { contact_identifier_value: value } });
const link = (value: string, contact: string) =>
  sandbox.call('createContactIdentifier', { body: { contact_identifier_value: value, contact_uuid: contact } });

describe('identifying a contact', () => {
  it('finds a card with its contact; 60003 when unknown, 60004 when inactive', async () => {
    const sanne = sandbox.manifest.contacts.find((contact) => contact.email === 'sanne.devries@example.nl');
    const reply = await findCard(sanne?.identifiers[0] ?? '');
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ active: true, contact: { uuid: sanne?.uuid, email: sanne?.email } });
    expectError(await findCard('0000000000000'), 404, 60003);
    expectError(await findCard(INACTIVE_CARD), 409, 60004);
    expectError(await sandbox.call('findContactIdentifier', {}), 400, 1003, 'contact_identifier_value');
    const unlinked = await findCard(sandbox.manifest.unlinked_identifiers[0] ?? '');
    expect(unlinked.body.data.contact).toBeNull();
  });

  it('finds a contact by e-mail, ignoring case; 55031 when unknown', async () => {
    const reply = await sandbox.call('findContactByEmail', { query: { email: 'Daan.Jansen@example.nl' } });
    expect(reply.body.data).toMatchObject({ uuid: sandbox.contactUuid('daan'), email: 'daan.jansen@example.nl' });
    expectError(await sandbox.call('findContactByEmail', { query: { email: 'niemand@example.nl' } }), 404, 55031);
    expectError(await sandbox.call('findContactByEmail', { query: { email: 'no-at-sign' } }), 400, 1003, 'email');
  });

  it('gives the credit balance; 55031 for an unknown contact', async () => {
    const reply = await sandbox.call('getCreditBalance', { params: { contact_uuid: sandbox.contactUuid('olivia') } });
    expect(reply.body.data).toEqual({ balance: 2100 });
    expectError(await sandbox.call('getCreditBalance', { params: { contact_uuid: UNKNOWN } }), 404, 55031);
  });
});

describe('registering', () => {
  it('creates a contact once per e-mail address (60005)', async () => {
    const reply = await sandbox.call('createContact', { body: { email: 'lieke.mulder@example.nl' } });
    expect(reply.status).toBe(201);
    expect(reply.body.data).toMatchObject({ email: 'lieke.mulder@example.nl', uuid: expect.any(String) });
    const found = await sandbox.call('findContactByEmail', { query: { email: 'lieke.mulder@example.nl' } });
    expect(found.body.data.uuid).toBe(reply.body.data.uuid);
    expectError(await sandbox.call('createContact', { body: { email: 'LIEKE.MULDER@example.nl' } }), 409, 60005);
    expectError(await sandbox.call('createContact', { body: {} }), 400, 1003, 'email');
    const balance = await sandbox.call('getCreditBalance', { params: { contact_uuid: reply.body.data.uuid } });
    expect(balance.body.data.balance).toBe(0);
  });

  it('links a new card, links an unlinked one, refuses a card held by anyone (60014, 60006)', async () => {
    const contact = (await sandbox.call('createContact', { body: { email: 'tom.dekker@example.nl' } })).body.data.uuid;
    const fresh = await link('2710042999998', contact);
    expect(fresh.status).toBe(201);
    expect(fresh.body.data).toMatchObject({ value: '2710042999998', active: true, contact: { uuid: contact } });
    expect((await findCard('2710042999998')).body.data.contact.uuid).toBe(contact);

    const unlinked = sandbox.manifest.unlinked_identifiers[0] ?? '';
    expect((await link(unlinked, contact)).body.data.contact.uuid).toBe(contact);
    expect((await findCard(unlinked)).body.data.contact.uuid).toBe(contact);

    expectError(await link(unlinked, sandbox.contactUuid('daan')), 409, 60014);
    expectError(await link(unlinked, contact), 409, 60006);
    expectError(await link('2710042000001', UNKNOWN), 404, 55031);
    expectError(await sandbox.call('createContactIdentifier', { body: { contact_uuid: contact } }), 400, 1003, 'contact_identifier_value');
  });
});
