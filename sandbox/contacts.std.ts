import { platformErrors } from '../api/operations.std.ts';
import { conflict, notFound } from './errors.std.ts';
import { randomUuid } from './ids.std.ts';
import { findContact, requireContact } from './lookups.std.ts';
import type { Contact, ContactIdentifier, SandboxState } from './state.std.ts';

/** The five contact endpoints of platform-notes.md: identify by card or e-mail, register, link a card. */

function identifierView(state: SandboxState, identifier: ContactIdentifier) {
  const contact = findContact(state, identifier.contact_uuid);
  return {
    name: identifier.name,
    value: identifier.value,
    active: identifier.active,
    contact: contact ? { uuid: contact.uuid, email: contact.email } : null,
  };
}

function contactView(contact: Contact) {
  return { uuid: contact.uuid, email: contact.email, firstname: contact.firstname, lastname: contact.lastname };
}

function sameEmail(contact: Contact, email: string): boolean {
  return contact.email.toLowerCase() === email.trim().toLowerCase();
}

export function findContactIdentifier(state: SandboxState, value: string) {
  const identifier = state.identifiers.find((candidate) => candidate.value === value);
  if (!identifier) throw notFound(platformErrors.contactIdentifierNotFound, 'Contact identifier not found.');
  if (!identifier.active) throw conflict(platformErrors.contactIdentifierInactive, 'Contact identifier is inactive.');
  return identifierView(state, identifier);
}

export function findContactByEmail(state: SandboxState, email: string) {
  const contact = state.contacts.find((candidate) => sameEmail(candidate, email));
  if (!contact) throw notFound(platformErrors.contactNotFound, 'Contact not found.');
  return contactView(contact);
}

export function createContact(state: SandboxState, email: string) {
  if (state.contacts.some((candidate) => sameEmail(candidate, email))) {
    throw conflict(platformErrors.contactAlreadyExists, 'A contact with this e-mail address already exists.');
  }
  const contact: Contact = { uuid: randomUuid(), email: email.trim(), firstname: null, lastname: null, credit_balance: 0 };
  state.contacts.push(contact);
  return contactView(contact);
}

/**
 * Links a card to a contact. A card nobody holds (created here or known unlinked) is linked; one
 * held by another contact is 60014, and one this contact already holds is 60006 (it exists).
 */
export function createContactIdentifier(state: SandboxState, value: string, contactUuid: string) {
  const contact = requireContact(state, contactUuid);
  const existing = state.identifiers.find((candidate) => candidate.value === value);
  if (existing?.contact_uuid === contact.uuid) {
    throw conflict(platformErrors.contactIdentifierAlreadyExists, 'This contact already holds this identifier.');
  }
  if (existing?.contact_uuid) {
    throw conflict(platformErrors.contactIdentifierAlreadyLinked, 'The identifier is linked to another contact.');
  }
  const identifier = existing ?? { value, name: 'Loyalty card', active: true, contact_uuid: null };
  identifier.contact_uuid = contact.uuid;
  if (!existing) state.identifiers.push(identifier);
  return identifierView(state, identifier);
}

export function getCreditBalance(state: SandboxState, contactUuid: string) {
  return { balance: requireContact(state, contactUuid).credit_balance };
}
