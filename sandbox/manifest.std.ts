import type { SandboxState } from './state.std.ts';

/**
 * `sandbox.json` in the data folder: where the sandbox listens, its credentials and the demo
 * records, for the kiosk's demo mode, tests and trial scripts. Vouchers are listed as seeded;
 * the rest is as of the start that wrote the file.
 */
export function buildManifest(state: SandboxState, baseUrl: string) {
  const activeIdentifiers = state.identifiers.filter((identifier) => identifier.active);
  return {
    base_url: baseUrl,
    credentials: { ...state.credentials },
    shops: state.shops.map(({ uuid, id, name, reference }) => ({ uuid, id, name, reference })),
    contacts: state.contacts.map((contact) => ({
      uuid: contact.uuid,
      email: contact.email,
      firstname: contact.firstname,
      identifiers: activeIdentifiers
        .filter((identifier) => identifier.contact_uuid === contact.uuid)
        .map((identifier) => identifier.value),
    })),
    promotions: state.promotions.map(({ uuid, name }) => ({ uuid, name })),
    vouchers: state.seeded_vouchers.map((voucher) => ({ ...voucher })),
    unlinked_identifiers: activeIdentifiers
      .filter((identifier) => identifier.contact_uuid === null)
      .map((identifier) => identifier.value),
    /** A sandbox extra: cards that exist but are inactive (60004). */
    inactive_identifiers: state.identifiers
      .filter((identifier) => !identifier.active)
      .map((identifier) => identifier.value),
  };
}

export type SandboxManifest = ReturnType<typeof buildManifest>;
