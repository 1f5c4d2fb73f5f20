import { platformErrors } from '../../api/errors.std.ts';
import { visitMode, type KioskMode } from '../../common/config-schema.std.ts';
import type { CallOutput } from '../../common/contract.std.ts';
import type { LookupResult } from '../../common/shopper-views.std.ts';
import type { InputOnlyHandlers } from '../bridge/dispatcher.std.ts';
import type { ConfigStore } from '../config/config-store.node.ts';
import type { LoyaltyClient } from '../loyalty/client.node.ts';
import { LoyaltyError } from '../loyalty/errors.std.ts';
import type { PlatformConnection } from '../loyalty/platform-connection.node.ts';
import { isOutage, type ServiceHealth, type TrackOptions } from '../loyalty/service-health.node.ts';
import { SHOPPER_ACTION_BUDGET_MS, withTimeBudget } from '../loyalty/time-budget.node.ts';
import type { Logger } from '../logging/logger.std.ts';
import type { VisitLog } from '../logging/visit-log.std.ts';
import type { VisitIdentity } from '../shopper/visit-identity.std.ts';
import { toShopperView, toVoucherView } from '../shopper/views.std.ts';
import { GuessGuard } from '../shopper/guess-guard.std.ts';
import { isSetupCard } from '../manager/setup-card.node.ts';
import type { ScannedHere } from '../scanner/scanned-here.std.ts';
import { BridgeFailure } from '../bridge/dispatcher.std.ts';
import type { FrameOrigins } from '../security/frame-origins.node.ts';

const VOUCHERS_PER_PAGE = 12;

const isNotFound = (error: unknown) => error instanceof LoyaltyError && error.kind === 'not_found';

/** Not found is an answer ("no such card"), not a failure. */
async function orNull<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** The create operation for each kiosk mode: one portal-session type per mode. */
const SESSION_CREATORS = {
  regular: 'createPortalSession',
  'credit-reception': 'createCreditReceptionPortalSession',
  'redeem-giftcards': 'createRedeemGiftcardsPortalSession',
  'top-up-giftcards': 'createTopUpGiftcardsPortalSession',
  'pay-prepaid': 'createPayPrepaidPortalSession',
  'top-up-prepaid': 'createTopUpPrepaidPortalSession',
  vouchers: 'createVoucherPortalSession',
} as const satisfies Record<KioskMode, keyof LoyaltyClient>;

interface ShopperServiceOptions {
  connection: PlatformConnection;
  health: ServiceHealth;
  config: ConfigStore;
  /** Tagged with the visit's portal session once there is one. */
  visit: VisitLog;
  /** How the visit's shopper was known, for the ledger. */
  identity: VisitIdentity;
  /** A lookup's time with the platform, across its requests and retries (default 12 s). */
  actionBudgetMs?: number;
  /** Which portal pages may be framed. */
  frameOrigins: Pick<FrameOrigins, 'admit'>;
  /** Values main's own scanner read: their lookups are scans; every other lookup counts as a guess. */
  scannedHere?: Pick<ScannedHere, 'take'>;
}

/** What every group of shopper calls shares. */
interface ShopperContext {
  connection: PlatformConnection;
  config: ConfigStore;
  visit: VisitLog;
  identity: VisitIdentity;
  actionBudgetMs: number;
  logger: Logger;
  /** A platform call that reports to health; `missIsAnswer`: its not_found is no error. */
  platform<T>(use: (client: LoyaltyClient) => Promise<T>, options?: TrackOptions): Promise<T>;
  /** Lookups of what a shopper could be guessing: card numbers, voucher codes, e-mail addresses. */
  guesses: GuessGuard;
  scannedHere: Pick<ScannedHere, 'take'>;
  frameOrigins: Pick<FrameOrigins, 'admit'>;
}

/**
 * What a shopper's visit asks of the platform: identify (card, e-mail, joining), the home screen,
 * vouchers, and portal sessions. Answers are cut down to views; every call reports to health.
 */
/** Each group names the calls it answers; together they are the shopper's platform calls. */
export function createShopperHandlers(options: ShopperServiceOptions) {
  const { connection, health, config, visit, identity, frameOrigins, actionBudgetMs = SHOPPER_ACTION_BUDGET_MS, scannedHere = { take: () => false } } = options;
  const ctx: ShopperContext = {
    connection,
    config,
    visit,
    identity,
    actionBudgetMs,
    logger: visit.logger,
    platform: (use, trackOptions) => health.track(use(connection.client()), trackOptions),
    guesses: new GuessGuard(),
    scannedHere,
    frameOrigins,
  };
  return { ...identifyCalls(ctx), ...homeCalls(ctx), ...voucherCalls(ctx), ...portalSessionCalls(ctx) };
}

/** A lookup that counts as a guess: refused while guessing is paused, and a miss when `missed` says so. */
async function asGuess<T>(ctx: ShopperContext, lookup: () => Promise<T>, missed: (answer: T) => boolean): Promise<T> {
  const guess = ctx.guesses.reserve();
  let miss = false;
  try {
    const answer = await lookup();
    miss = missed(answer);
    return answer;
  } finally {
    guess.settle(miss);
  }
}

/** Who the shopper is: a scanned card (or voucher), an e-mail, or joining. */
function identifyCalls(ctx: ShopperContext): InputOnlyHandlers<'lookupScan' | 'identifyByEmail' | 'registerShopper' | 'linkJoinedCard'> {
  const { platform, logger } = ctx;
  return {
    async lookupScan({ value, source }) {
      // A setup card is the console's: its sealed connection never goes to a platform as a code.
      if (isSetupCard(value)) {
        logger.info('setup card scanned outside the setup wizard', { event: 'setup.card_misplaced' });
        return { kind: 'setup_card' };
      }
      // Only a value main's own scanner just read is surely no guess: the renderer's word is not taken.
      const found = ctx.scannedHere.take(value) ? await lookupScan(ctx, value) : await asGuess(ctx, () => lookupScan(ctx, value), (result) => result.kind === 'unknown');
      if (found.kind === 'shopper') ctx.identity.identified(source === 'typed' ? 'typed' : 'card', value);
      ctx.identity.lookedUp(found.kind === 'unlinked_card' ? value : null);
      return found;
    },

    async identifyByEmail({ email }) {
      const found = await asGuess(ctx, () => identifyByEmail(ctx, email), (result) => result.kind === 'not_found');
      if (found.kind === 'shopper') ctx.identity.identified('email');
      return found;
    },

    async registerShopper({ email }) {
      const contact = (await platform((client) => client.createContact({ email }))).data;
      logger.info('shopper joined', { contact: contact.uuid });
      ctx.identity.joined(contact.uuid);
      return toShopperView(contact);
    },

    // Only the card main itself found unlinked, only to the contact that joined since: the screen names neither.
    async linkJoinedCard() {
      const link = ctx.identity.takeCardToLink();
      if (!link) throw new BridgeFailure('invalid_payload', 'no unlinked card was looked up before joining on this visit');
      await platform((client) => client.createContactIdentifier({ contact_identifier_value: link.card, contact_uuid: link.contactUuid }));
      logger.info('card linked to the shopper who joined', { event: 'shopper.card_linked', contact: link.contactUuid });
      return null;
    },
  };
}

async function identifyByEmail({ platform }: ShopperContext, email: string): Promise<CallOutput<'identifyByEmail'>> {
  const contact = await orNull(platform((client) => client.findContactByEmail({ email }), MISS_IS_ANSWER));
  return contact ? { kind: 'shopper', shopper: toShopperView(contact.data) } : { kind: 'not_found' };
}

/** A lookup that may find nothing: "no such card" is an answer, and counts as no platform error. */
const MISS_IS_ANSWER: TrackOptions = { missIsAnswer: true };

/** A scanned value is looked up as a card and as a voucher at once: one of the two is expected to miss. */
async function lookupScan(ctx: ShopperContext, value: string): Promise<LookupResult> {
  const { platform, visit, config, logger } = ctx;
  const [card, voucher] = await withTimeBudget(ctx.actionBudgetMs, () =>
    Promise.allSettled([
      platform((client) => client.findContactIdentifier({ contact_identifier_value: value }), MISS_IS_ANSWER),
      platform((client) => client.findVoucher({ code: value }), MISS_IS_ANSWER),
    ]),
  );
  if (card.status === 'fulfilled') {
    const identifier = card.value.data;
    if (!identifier.active) return { kind: 'inactive_card' };
    if (!identifier.contact) return { kind: 'unlinked_card' };
    return { kind: 'shopper', shopper: toShopperView(identifier.contact) };
  }
  if (card.reason instanceof LoyaltyError && card.reason.code === platformErrors.contactIdentifierInactive.code) {
    return { kind: 'inactive_card' };
  }
  if (voucher.status === 'fulfilled') {
    // A voucher-only visit is tagged too: its session (shop known, shopper not yet) is made on the side.
    if (!visit.session && visitMode(config.get().kiosk.modes)) {
      createSession(ctx, {}).catch((error: unknown) =>
        logger.warn('portal session for a voucher-only visit not created', { kind: (error as LoyaltyError).kind }),
      );
    }
    ctx.identity.gave([voucher.value.data]);
    return { kind: 'voucher', voucher: toVoucherView(voucher.value.data) };
  }
  // Neither lookup knew the value: only a real failure of either is worth reporting.
  for (const result of [card, voucher]) if (!isNotFound(result.reason)) throw result.reason;
  return { kind: 'unknown' };
}

/** The home screen: the credit balance and the shopper's vouchers. */
function homeCalls({ platform, logger, identity }: ShopperContext): InputOnlyHandlers<'getCreditBalance' | 'listShopperVouchers'> {
  return {
    async getCreditBalance({ contactUuid }) {
      // A balance the platform cannot give is left off the home screen, not a failed visit.
      try {
        return { creditBalance: (await platform((client) => client.getCreditBalance({ contact_uuid: contactUuid }))).data.balance };
      } catch (error) {
        if (isOutage(error)) throw error;
        logger.warn('credit balance unavailable', { kind: (error as LoyaltyError).kind });
        return { creditBalance: null };
      }
    },

    async listShopperVouchers({ contactUuid, page }) {
      const answer = await platform((client) =>
        client.listVouchers({ contact_uuid: contactUuid, status: 'ACTIVE', limit: VOUCHERS_PER_PAGE, page }),
      );
      identity.gave(answer.data);
      return {
        vouchers: answer.data.map(toVoucherView),
        page: answer.meta.current_page,
        lastPage: answer.meta.last_page,
        total: answer.meta.total,
      };
    },
  };
}

/** A voucher's validity; finding one by its code is lookupScan's, under the guard against guessing. */
function voucherCalls({ platform, connection, logger }: ShopperContext): InputOnlyHandlers<'checkVoucher'> {
  return {
    async checkVoucher({ voucherUuid, contactUuid }) {
      const { personalAccessToken } = await connection.credentials();
      if (!personalAccessToken) {
        logger.info('voucher validity check skipped: no personal access token configured', { event: 'voucher.check_skipped' });
        return { checked: false };
      }
      const answer = await platform((client) =>
        client.checkVoucherValidity({ voucher_uuid: voucherUuid, shop_uuid: connection.shopUuid(), contact_uuid: contactUuid }),
      );
      return { checked: true, valid: answer.data.valid, platformCode: answer.data.reason?.code ?? null };
    },
  };
}

function portalSessionCalls(ctx: ShopperContext): InputOnlyHandlers<'startPortalSession' | 'getPortalSession'> {
  return {
    async startPortalSession(input) {
      return sessionView(ctx, await createSession(ctx, input));
    },

    async getPortalSession({ uuid }) {
      return sessionView(ctx, (await ctx.platform((client) => client.getPortalSession({ portal_session_uuid: uuid }))).data);
    },
  };
}

/** What the screen frames: only a page on an origin the kiosk may frame (FrameOrigins logs a refusal). */
function sessionView(ctx: ShopperContext, session: { uuid: string; url: string; contact: { uuid: string | null } | null; shop: { name: string } }) {
  if (!ctx.frameOrigins.admit(session.url)) {
    throw new BridgeFailure('portal_refused', 'the portal page is on an origin this kiosk may not frame (portal.allowedOrigins)');
  }
  return {
    uuid: session.uuid,
    url: session.url,
    origin: new URL(session.url).origin,
    contactUuid: session.contact?.uuid ?? null,
    shopName: session.shop.name,
  };
}

interface SessionRequest {
  mode?: KioskMode;
  contactUuid?: string;
  amountInCents?: number;
}

/**
 * A session of one of the kiosk's modes (by default the one that tags a native visit), with every
 * shared `session.*` setting; it tags the visit from now on.
 */
async function createSession(ctx: ShopperContext, { mode: asked, contactUuid, amountInCents }: SessionRequest) {
  const { config, connection, platform, visit, logger } = ctx;
  const current = config.get();
  const mode = sessionMode(current.kiosk.modes, asked);
  const { allow_multiple_giftcards, ...settings } = current.session;
  const base = { shop_uuid: connection.shopUuid(), contact_uuid: contactUuid, ...settings };
  const created =
    mode === 'redeem-giftcards'
      ? await platform((client) =>
          client.createRedeemGiftcardsPortalSession({
            ...base,
            amount_in_cents: requireAmount(amountInCents),
            allow_multiple_giftcards,
          }),
        )
      : await platform((client) => client[SESSION_CREATORS[mode]](base));
  visit.begin(created.data.uuid);
  logger.info('portal session created', { event: 'portal.session_created', mode });
  return created.data;
}

/** The mode asked for, when this kiosk offers it: a screen never starts a session the kiosk was not set up for. */
function sessionMode(modes: readonly KioskMode[], asked: KioskMode | undefined): KioskMode {
  if (asked === undefined) return visitMode(modes) ?? modes[0]!;
  if (!modes.includes(asked)) {
    throw new BridgeFailure('invalid_payload', `this kiosk does not offer ${asked} sessions (kiosk.modes: ${modes.join(', ')})`);
  }
  return asked;
}

function requireAmount(amountInCents: number | undefined): number {
  if (amountInCents === undefined) throw new LoyaltyError({ kind: 'validation', message: 'an amount is needed for a giftcard session' });
  return amountInCents;
}
