import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/sandbox.node.ts';
import type { KioskMode } from '../../common/config-schema.std.ts';
import { ConfigStore } from '../config/config-store.node.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { VisitLog } from '../logging/visit-log.std.ts';
import { createLoyaltyClient } from '../loyalty/client.node.ts';
import type { PlatformConnection } from '../loyalty/platform-connection.node.ts';
import { ServiceHealth } from '../loyalty/service-health.node.ts';
import { FrameOrigins } from '../security/frame-origins.node.ts';
import { VisitIdentity } from '../shopper/visit-identity.std.ts';
import { createShopperHandlers } from './shopper-handlers.node.ts';
import { ScannedHere } from '../scanner/scanned-here.std.ts';
import { shopperCalls, TYPED_GUESS_LIMIT } from '../../common/contract.std.ts';
import { linesOf, recordingLogger } from '../../test/support/factories.std.ts';

const SKIPPED = 'voucher.check_skipped';

/**
 * The shopper handlers of a connected kiosk against a real sandbox. The validity check needs the
 * personal access token; a demo kiosk always has one (its sandbox's), so a kiosk without one is
 * built here.
 */
describe('shopper handlers', () => {
  let sandbox: RunningSandbox;
  const dirs: string[] = [];

  beforeAll(async () => {
    dirs.push(await mkdtemp(join(tmpdir(), 'shopper-service-sandbox-')), await mkdtemp(join(tmpdir(), 'shopper-service-kiosk-')));
    sandbox = await startSandbox({ dataDir: dirs[0]!, port: 0 });
  });
  afterAll(async () => {
    await sandbox?.close();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  /** The handlers of a kiosk whose keychain holds the API key and access token, and the PAT only when `withPat`. */
  function kioskHandlers(withPat: boolean, modes: KioskMode[] = ['regular']) {
    const { api_key, access_token, personal_access_token } = sandbox.manifest.credentials;
    const credentials = async () => ({ apiKey: api_key, accessToken: access_token, personalAccessToken: withPat ? personal_access_token : undefined });
    const requested: string[] = [];
    const recordingFetch: typeof fetch = (input, init) => {
      requested.push(new URL(String(input)).pathname);
      return fetch(input, init);
    };
    const client = createLoyaltyClient({ baseUrl: sandbox.baseUrl, credentials, fetch: recordingFetch });
    const connection: PlatformConnection = { client: () => client, shopUuid: () => sandbox.manifest.shops[0]!.uuid, credentials };
    const health = new ServiceHealth({ probe: async () => undefined, onChange: () => {}, logger: silentLogger });
    const { logger, lines } = recordingLogger();
    const visit = new VisitLog(logger);
    const config = new ConfigStore({ dataDir: dirs[1]!, logger: silentLogger });
    config.set('kiosk.modes', modes);
    const frameOrigins = new FrameOrigins({ dataDir: dirs[1]!, config, apiOrigin: () => new URL(sandbox.baseUrl).origin, logger: silentLogger });
    const scannedHere = new ScannedHere();
    const identity = new VisitIdentity();
    const handlers = createShopperHandlers({ connection, health, visit, identity, config, frameOrigins, scannedHere });
    const logged = () => lines.map(({ fields }) => fields.event);
    return { handlers, visit, identity, lines, logged, requested, scannedHere, health };
  }

  const sessionType = async (uuid: string) =>
    ((await createLoyaltyClient({ baseUrl: sandbox.baseUrl, credentials: async () => ({ apiKey: sandbox.manifest.credentials.api_key }) })
      .getPortalSession({ portal_session_uuid: uuid })).data as unknown as { type: string }).type;

  const koffie24 = () => sandbox.manifest.vouchers.find((voucher) => voucher.code === 'KOFFIE24')!;

  it('never sends a setup card scanned on a shopper screen to the platform: answered as one, logged for staff (#34 §2)', async () => {
    const { handlers, requested, logged } = kioskHandlers(true);
    await expect(handlers.lookupScan({ value: 'LKSETUP1.c2VhbGVkLWNvbm5lY3Rpb24', source: 'camera' })).resolves.toEqual({ kind: 'setup_card' });
    expect(requested).toEqual([]);
    expect(logged()).toEqual(['setup.card_misplaced']);
  });

  it('counts every lookup as a guess but those of values its own scanner read: forty sent at once, five answered (#20 §7)', async () => {
    const { handlers, requested, scannedHere } = kioskHandlers(true);
    const isLookup = (path: string) => path.includes('contact-identifiers') || path.includes('/vouchers/find');
    const guesses = await Promise.allSettled(Array.from({ length: 40 }, (_, n) => handlers.lookupScan({ value: `GUESS${n}` })));
    const answered = guesses.filter((guess) => guess.status === 'fulfilled');
    expect(answered).toHaveLength(TYPED_GUESS_LIMIT);
    expect(answered.every((guess) => guess.value.kind === 'unknown')).toBe(true);
    for (const guess of guesses.filter((guess) => guess.status === 'rejected')) expect(guess.reason).toMatchObject({ code: 'too_many_attempts' });
    // The refused ones never reached the platform: two lookups (card, voucher) per answered guess.
    expect(requested.filter(isLookup)).toHaveLength(TYPED_GUESS_LIMIT * 2);
    // Paused now, whatever the renderer claims; but a code the kiosk's own scanner just read is a scan.
    await expect(handlers.lookupScan({ value: 'KOFFIE24' })).rejects.toMatchObject({ code: 'too_many_attempts' });
    scannedHere.add('KOFFIE24');
    await expect(handlers.lookupScan({ value: 'KOFFIE24' })).resolves.toMatchObject({ kind: 'voucher' });
    // Taken once: the same value again is the renderer's word only.
    await expect(handlers.lookupScan({ value: 'KOFFIE24' })).rejects.toMatchObject({ code: 'too_many_attempts' });
  });

  it('pauses e-mail lookups too, under the same count: forty unknown addresses in a row, five answered (#28 §10)', async () => {
    const { handlers, requested } = kioskHandlers(true);
    const answers = [];
    for (let n = 0; n < 40; n++) answers.push(await handlers.identifyByEmail({ email: `guess${n}@example.org` }).catch((error: unknown) => error));
    expect(answers.slice(0, TYPED_GUESS_LIMIT)).toEqual(Array(TYPED_GUESS_LIMIT).fill({ kind: 'not_found' }));
    for (const refused of answers.slice(TYPED_GUESS_LIMIT)) expect(refused).toMatchObject({ code: 'too_many_attempts' });
    expect(requested.filter((path) => path.includes('/contacts/find-one-by'))).toHaveLength(TYPED_GUESS_LIMIT);
    // One pause for every lookup: a known address, or a card, waits it out as well.
    await expect(handlers.identifyByEmail({ email: sandbox.manifest.contacts[0]!.email })).rejects.toMatchObject({ code: 'too_many_attempts' });
    await expect(handlers.lookupScan({ value: 'KOFFIE24' })).rejects.toMatchObject({ code: 'too_many_attempts' });
  });

  it('keeps counting misses when the shopper\'s own card comes between them (#28 §10)', async () => {
    const { handlers } = kioskHandlers(true);
    const ownCard = sandbox.manifest.contacts[0]!.identifiers[0]!;
    for (let round = 0; round < TYPED_GUESS_LIMIT - 1; round++) {
      await expect(handlers.lookupScan({ value: `GUESS-A${round}` })).resolves.toEqual({ kind: 'unknown' });
      await expect(handlers.lookupScan({ value: ownCard })).resolves.toMatchObject({ kind: 'shopper' });
    }
    await expect(handlers.lookupScan({ value: 'GUESS-A-LAST' })).resolves.toEqual({ kind: 'unknown' });
    await expect(handlers.lookupScan({ value: ownCard })).rejects.toMatchObject({ code: 'too_many_attempts' });
  });

  it('offers no shopper call that finds a voucher by its code outside the guard (#28 §10)', () => {
    const { handlers } = kioskHandlers(true);
    expect(Object.keys(shopperCalls)).not.toContain('findVoucher');
    expect(Object.keys(handlers)).not.toContain('findVoucher');
  });

  it('counts no platform error for the half of a scan that was expected to miss, nor for an unknown e-mail (#23)', async () => {
    const { handlers, scannedHere, health } = kioskHandlers(true);
    const card = sandbox.manifest.contacts[0]!.identifiers[0]!;
    scannedHere.add(card);
    await expect(handlers.lookupScan({ value: card })).resolves.toMatchObject({ kind: 'shopper' });
    scannedHere.add('KOFFIE24');
    await expect(handlers.lookupScan({ value: 'KOFFIE24' })).resolves.toMatchObject({ kind: 'voucher' });
    await expect(handlers.identifyByEmail({ email: 'nobody@example.org' })).resolves.toEqual({ kind: 'not_found' });
    expect(health.counters().errors).toEqual({});
    health.close();
  });

  it('without one: skipped with a logged notice, and the platform is not asked', async () => {
    const { handlers, logged, requested } = kioskHandlers(false);
    await expect(handlers.checkVoucher({ voucherUuid: koffie24().uuid })).resolves.toEqual({ checked: false });
    expect(logged()).toContain(SKIPPED);
    expect(requested).toEqual([]);
  });

  it('with one: the platform checks the voucher, and nothing is said about skipping', async () => {
    const { handlers, logged, requested } = kioskHandlers(true);
    await expect(handlers.checkVoucher({ voucherUuid: koffie24().uuid })).resolves.toEqual({ checked: true, valid: true, platformCode: null });
    expect(logged()).not.toContain(SKIPPED);
    expect(requested).toEqual([`/api/v3/oauth/clients/vouchers/${koffie24().uuid}/validate`]);
  });

  it('tags a voucher-only visit with a portal session of its own, made on the side, until the visit ends', async () => {
    const { handlers, visit, lines } = kioskHandlers(false);
    await expect(handlers.lookupScan({ value: 'KOFFIE24' })).resolves.toMatchObject({ kind: 'voucher' });
    await vi.waitFor(() => expect(visit.session).not.toBeNull());
    const session = (await createLoyaltyClient({ baseUrl: sandbox.baseUrl, credentials: async () => ({ apiKey: sandbox.manifest.credentials.api_key }) })
      .getPortalSession({ portal_session_uuid: visit.session! })).data;
    expect(session).toMatchObject({ shop: { uuid: sandbox.manifest.shops[0]!.uuid }, contact: null });

    await handlers.checkVoucher({ voucherUuid: koffie24().uuid });
    expect(linesOf(lines, SKIPPED)[0]?.fields).toEqual({ event: SKIPPED, portalSession: session.uuid });
    // The visit already has its session: another voucher scan makes none.
    await handlers.lookupScan({ value: 'KOFFIE24' });
    expect(linesOf(lines, 'portal.session_created')).toHaveLength(1);

    visit.end();
    await handlers.checkVoucher({ voucherUuid: koffie24().uuid });
    expect(linesOf(lines, SKIPPED).at(-1)?.fields).toEqual({ event: SKIPPED });
  });

  it('notes how the shopper was known, for the ledger: the voucher alone, a card, a typed number, an e-mail', async () => {
    const { handlers, identity } = kioskHandlers(true);
    const sanne = sandbox.manifest.contacts[0]!;
    await handlers.lookupScan({ value: koffie24().code, source: 'camera' });
    expect(identity.by).toBe('voucher');
    await handlers.lookupScan({ value: sanne.identifiers[0]!, source: 'camera' });
    expect(identity.by).toBe('card');
    await handlers.lookupScan({ value: sanne.identifiers[0]!, source: 'typed' });
    expect(identity.by).toBe('typed');
    await handlers.identifyByEmail({ email: sanne.email });
    expect(identity.by).toBe('email');
    identity.end();
    expect(identity.by).toBe('voucher');
  });

  it('links on joining only the unlinked card it looked up last, to the contact that joined, once (#32)', async () => {
    const { handlers, identity } = kioskHandlers(true);
    const card = sandbox.manifest.unlinked_identifiers[0]!;
    const owner = async () =>
      (await createLoyaltyClient({ baseUrl: sandbox.baseUrl, credentials: async () => ({ apiKey: sandbox.manifest.credentials.api_key }) })
        .findContactIdentifier({ contact_identifier_value: card })).data.contact?.uuid ?? null;

    // Nobody joined yet: nothing to link to.
    await expect(handlers.lookupScan({ value: card })).resolves.toEqual({ kind: 'unlinked_card' });
    await expect(handlers.linkJoinedCard({})).rejects.toMatchObject({ code: 'invalid_payload' });
    // A lookup since that found something else (a voucher): no card to link either.
    await handlers.lookupScan({ value: card });
    await handlers.lookupScan({ value: koffie24().code });
    await handlers.registerShopper({ email: 'joins.first@example.nl', consent: true });
    await expect(handlers.linkJoinedCard({})).rejects.toMatchObject({ code: 'invalid_payload' });
    expect(await owner()).toBeNull();

    identity.end();
    await handlers.lookupScan({ value: card });
    const joined = await handlers.registerShopper({ email: 'joins.here@example.nl', consent: true });
    expect(identity.by).toBe('joined');
    await expect(handlers.linkJoinedCard({})).resolves.toBeNull();
    expect(await owner()).toBe(joined.contactUuid);
    // Once: a second link of the same visit has no card left to link.
    await expect(handlers.linkJoinedCard({})).rejects.toMatchObject({ code: 'invalid_payload' });
  });

  it('tags the visit with the session made for the identified shopper', async () => {
    const { handlers, lines } = kioskHandlers(false);
    const sanne = sandbox.manifest.contacts[0]!;
    const session = await handlers.startPortalSession({ contactUuid: sanne.uuid });
    expect(session.contactUuid).toBe(sanne.uuid);
    await handlers.checkVoucher({ voucherUuid: koffie24().uuid });
    expect(linesOf(lines, 'portal.session_created')[0]?.fields).toEqual({ event: 'portal.session_created', portalSession: session.uuid, mode: 'regular' });
    expect(linesOf(lines, SKIPPED)[0]?.fields).toEqual({ event: SKIPPED, portalSession: session.uuid });
  });

  it('starts a session of each mode the kiosk offers, the first native one by default, and refuses any other mode', async () => {
    const { handlers, lines } = kioskHandlers(false, ['pay-prepaid', 'vouchers', 'credit-reception']);
    const sanne = sandbox.manifest.contacts[0]!;
    const visitSession = await handlers.startPortalSession({ contactUuid: sanne.uuid });
    await expect(sessionType(visitSession.uuid)).resolves.toBe('vouchers');
    const credits = await handlers.startPortalSession({ mode: 'credit-reception', contactUuid: sanne.uuid });
    await expect(sessionType(credits.uuid)).resolves.toBe('credit_reception');
    const prepaid = await handlers.startPortalSession({ mode: 'pay-prepaid' });
    await expect(sessionType(prepaid.uuid)).resolves.toBe('pay_prepaid');
    expect(linesOf(lines, 'portal.session_created').map((line) => line.fields.mode)).toEqual(['vouchers', 'credit-reception', 'pay-prepaid']);

    await expect(handlers.startPortalSession({ mode: 'top-up-giftcards' })).rejects.toMatchObject({
      code: 'invalid_payload',
      message: 'this kiosk does not offer top-up-giftcards sessions (kiosk.modes: pay-prepaid, vouchers, credit-reception)',
    });
    expect(linesOf(lines, 'portal.session_created')).toHaveLength(3);
  });

  it('a kiosk of hosted modes only makes no session for a voucher scan: the visit is not its own', async () => {
    const { handlers, visit, lines } = kioskHandlers(false, ['credit-reception', 'pay-prepaid']);
    await expect(handlers.lookupScan({ value: 'KOFFIE24' })).resolves.toMatchObject({ kind: 'voucher' });
    // A side session would be made within a round trip to the local sandbox.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(visit.session).toBeNull();
    expect(linesOf(lines, 'portal.session_created')).toHaveLength(0);
  });
});
