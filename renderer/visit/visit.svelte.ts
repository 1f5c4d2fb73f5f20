import type { BridgeError, BridgeResult, KioskApi, KioskSettingsView } from '../../common/contract.std.ts';
import { KioskMode, NATIVE_MODES, visitMode, type Locale } from '../../common/config-schema.std.ts';
import type { Scan } from '../../common/scan.std.ts';
import type {
  LockAnswer,
  LookupResult,
  RedemptionProof,
  SlipResult,
  ReleaseOutcome,
  PortalSessionView,
  ShopperView,
  VoucherCheck,
  VoucherPage,
  VoucherView,
} from '../../common/shopper-views.std.ts';
import { problemForError, problemForStatus, type ProblemKey } from './problem-messages.std.ts';
import type { StaffReason } from './staff-call.std.ts';

/** What the shopper is told once a held voucher is let go of: each outcome in its own words. */
export type ReleaseNoticeKey = `release.${ReleaseOutcome['outcome']}`;

/** How long the shopper has to confirm a locked voucher; well inside the platform's hour. */
export const CONFIRM_SECONDS = 60;
/** More time is given only while the platform's own hold on the lock lasts this much longer. */
const LOCK_MARGIN_MS = 60_000;

export type Screen =
  | { name: 'attract' }
  | { name: 'notice'; problem: ProblemKey; offerJoin: boolean }
  /** The screen crashed or was reloaded mid-visit: main ended that visit; this says sorry. */
  | { name: 'interrupted' }
  | { name: 'email' }
  /** The card number or voucher code typed on the on-screen keyboard. */
  | { name: 'type-code' }
  /** Demo mode: the sandbox's sample cards and voucher codes to tap. */
  | { name: 'samples' }
  | { name: 'register' }
  | { name: 'home' }
  | { name: 'voucher'; voucher: VoucherView; check: VoucherCheck | null }
  | { name: 'confirm'; voucher: VoucherView; lock: LockAnswer; deadline: number }
  | { name: 'redeemed'; voucher: VoucherView; redeemedAt: string; proof: RedemptionProof | null; slip: SlipResult }
  | { name: 'amount' }
  /** `mode`: what the hosted page is for, as the screen names it; null for a session reopened without it. */
  | { name: 'portal'; session: PortalSessionView; mode: KioskMode | null };

const PORTAL_SESSION_KEY = 'kiosk.portalSession';
const PORTAL_MODE_KEY = 'kiosk.portalMode';

/** The bridge calls a visit makes, and no others. */
export type VisitBridge = Pick<
  KioskApi,
  | 'lookupScan'
  | 'identifyByEmail'
  | 'registerShopper'
  | 'linkJoinedCard'
  | 'getCreditBalance'
  | 'listShopperVouchers'
  | 'checkVoucher'
  | 'lockVoucher'
  | 'redeemVoucher'
  | 'releaseVoucher'
  | 'endVisit'
  | 'startPortalSession'
  | 'getPortalSession'
  | 'callStaff'
>;

/** What a visit needs from the world outside it; the kiosk passes the real ones, a test its fakes. */
export type VisitParts = {
  bridge: VisitBridge;
  /** Keeps a hosted session's uuid across a renderer reload (sessionStorage in the kiosk). */
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  /** The shopper's own choices (language, speech mode): kept on Back, forgotten when the visit ends. */
  choices: { forget(): void };
  /** How long the shopper has to confirm a locked voucher (longer in speech mode). */
  confirmSeconds: () => number;
  settings: () => KioskSettingsView | null;
  /** Milliseconds since the epoch, for the confirm countdown's deadline. */
  now: () => number;
  /** The shopper's language now: the slip is printed in it. */
  locale: () => Locale;
};

/**
 * One shopper's visit, from the first scan to the reset: which screen shows, who the shopper is
 * and what they are doing. Every piece of shopper data lives here, so `reset()` forgets it all.
 */
export class Visit {
  screen = $state<Screen>({ name: 'attract' });
  shopper = $state<ShopperView | null>(null);
  creditBalance = $state<number | null>(null);
  vouchers = $state<VoucherPage | null>(null);
  /** Back on home after a redemption ("Another voucher"): the shopper is nearly done, the idle time is shorter. */
  afterRedemption = $state(false);
  /** A problem with the last action, shown on the current screen. */
  problem = $state<ProblemKey | null>(null);
  /** What became of a voucher lock the shopper let go of; cleared by the next action. */
  notice = $state<ReleaseNoticeKey | null>(null);
  /** The problem staff were called about (#33 §11): called once per problem, and said to be. */
  staffCalledFor = $state<StaffReason | null>(null);
  /** Calls of this visit still on their way (home loads its vouchers and credits at once). */
  #pending = $state(0);
  readonly #bridge: VisitBridge;
  readonly #storage: VisitParts['storage'];
  readonly #choices: VisitParts['choices'];
  readonly #confirmSeconds: () => number;
  readonly #settings: () => KioskSettingsView | null;
  readonly #now: () => number;
  readonly #locale: () => Locale;
  /** The unlinked card scanned before joining; linked to the new contact. */
  #unlinkedCard = $state<string | null>(null);
  /** Bumped by reset(): an answer that arrives for an earlier visit is dropped. */
  #generation = 0;
  /** A scan that came while a call was running; taken up once the visit is free. */
  #queuedScan: Scan | null = null;

  constructor({ bridge, storage, choices, confirmSeconds, settings, now, locale }: VisitParts) {
    this.#locale = locale;
    this.#bridge = bridge;
    this.#storage = storage;
    this.#choices = choices;
    this.#confirmSeconds = confirmSeconds;
    this.#settings = settings;
    this.#now = now;
  }

  /** Whether any call of this visit is on its way: the screen is not complete, and waits for it. */
  get busy(): boolean {
    return this.#pending > 0;
  }

  /** Joining now links the unlinked card just scanned. */
  get linksCardOnJoin(): boolean {
    return this.#unlinkedCard !== null;
  }

  get native(): boolean {
    const settings = this.#settings();
    return !settings || visitMode(settings.modes) !== null;
  }

  /** The configured modes, in order: home's tiles. */
  get modes(): readonly KioskMode[] {
    return this.#settings()?.modes ?? [];
  }

  /** The modes served only on the platform's hosted pages, in order: a kiosk with no native mode has a start button each on attract. */
  get hostedModes(): readonly KioskMode[] {
    return (this.#settings()?.modes ?? []).filter((mode) => !NATIVE_MODES.has(mode));
  }

  /** Every scan from every scanner comes here; what it means depends on the screen. */
  async scan(scan: Scan) {
    const screen = this.screen.name;
    if (screen === 'confirm' || screen === 'redeemed' || screen === 'portal' || screen === 'amount') return;
    if (this.busy) {
      // Mid-call (home still loading, say): the newest scan waits its turn instead of being lost.
      this.#queuedScan = scan;
      return;
    }
    const found = await this.#call(() => this.#bridge.lookupScan({ value: scan.value, source: scan.source }));
    if (!found) return;
    await this.#onLookup(found, scan.value);
  }

  /**
   * A card number or voucher code typed by the shopper: the same lookup and the same screens as a
   * scan; main counts unknown values against guessing and may answer with a pause.
   */
  async typeCode(value: string) {
    if (this.busy) return;
    const found = await this.#call(() => this.#bridge.lookupScan({ value, source: 'typed' }));
    if (!found) return;
    await this.#onLookup(found, value);
  }

  /** Once per address sent: a second Continue, Done or Enter while the first is on its way is dropped. */
  async identifyByEmail(email: string) {
    if (this.busy) return;
    const found = await this.#call(() => this.#bridge.identifyByEmail({ email }));
    if (!found) return;
    if (found.kind === 'not_found') this.problem = 'problem.email.not_found';
    else await this.#identified(found.shopper);
  }

  async register(email: string) {
    if (this.busy) return;
    const shopper = await this.#call(() => this.#bridge.registerShopper({ email, consent: true }));
    if (!shopper) return;
    const linksCard = this.#unlinkedCard !== null;
    this.#unlinkedCard = null;
    // The card is linked beside the home's loading: a link that fails is said on the home screen.
    await Promise.all([this.#identified(shopper), linksCard && this.#call(() => this.#bridge.linkJoinedCard())]);
  }

  async loadVouchers(page: number) {
    if (!this.shopper) return;
    const listed = await this.#call(() => this.#bridge.listShopperVouchers({ contactUuid: this.shopper!.contactUuid, page }));
    if (listed) this.vouchers = listed;
  }

  async openVoucher(voucher: VoucherView) {
    this.problem = problemForStatus(voucher.status);
    this.screen = { name: 'voucher', voucher, check: null };
    if (this.problem) return;
    // A voucher without a contact is checked for the shopper holding it: the platform refuses the
    // check without one, so it waits until they identify (the screen asks for their card).
    if (!voucher.hasContact && !this.shopper) return;
    const check = await this.#call(() =>
      this.#bridge.checkVoucher({ voucherUuid: voucher.uuid, contactUuid: this.#contactFor(voucher) }),
    );
    if (!check || this.screen.name !== 'voucher' || this.screen.voucher.uuid !== voucher.uuid) return;
    this.screen = { ...this.screen, check };
    if (check.checked && !check.valid) {
      this.problem = check.platformCode ? problemForError({ code: 'conflict', message: '', platformCode: check.platformCode }) : 'problem.generic';
    }
  }

  /** Redeem, step one: lock the voucher for this till and ask the shopper to confirm. */
  async redeem() {
    if (this.screen.name !== 'voucher') return;
    const { voucher } = this.screen;
    const lock = await this.#call(() => this.#bridge.lockVoucher({ voucherUuid: voucher.uuid, code: voucher.code }));
    if (!lock) return;
    this.screen = { name: 'confirm', voucher, lock, deadline: this.#now() + this.#confirmSeconds() * 1000 };
  }

  /**
   * More time to confirm: the countdown starts again from full, as long as the platform's own hold
   * on the lock outlasts it by a minute. Whether it did.
   */
  moreTime(): boolean {
    if (this.screen.name !== 'confirm') return false;
    const deadline = this.#now() + this.#confirmSeconds() * 1000;
    const { systemReleaseAt } = this.screen.lock;
    if (systemReleaseAt !== null && deadline > Date.parse(systemReleaseAt) - LOCK_MARGIN_MS) return false;
    this.screen = { ...this.screen, deadline };
    return true;
  }

  /** Redeem, step two: main redeems with the lock it journaled. */
  async confirm() {
    if (this.screen.name !== 'confirm') return;
    const { voucher } = this.screen;
    const outcome = await this.#call(() =>
      this.#bridge.redeemVoucher({ voucherUuid: voucher.uuid, contactUuid: this.#contactFor(voucher), locale: this.#locale() }),
    );
    if (outcome?.outcome === 'redeemed') return this.#showRedeemed(outcome);
    if (this.screen.name !== 'confirm') return;
    // A second tap answered `busy`: the first confirm is still on its way and will answer.
    if (!outcome && !this.problem) return;
    if (outcome?.outcome === 'unsettled') {
      // The lock is still held: confirming again is safe (main settles it), and so is cancelling.
      this.problem = 'problem.voucher.unsettled';
      return;
    }
    this.screen = { name: 'voucher', voucher, check: null };
    if (outcome?.outcome === 'lock_lost') this.problem = 'problem.voucher.lock_lost';
  }

  /** Cancel (the back key too) or the countdown: the lock goes back before anything else happens. */
  async cancelConfirm(reason: 'cancel' | 'timeout') {
    // A confirm on its way decides the voucher's fate; its answer, not a release, is what to show.
    if (this.screen.name !== 'confirm' || this.busy) return;
    const { voucher } = this.screen;
    this.screen = { name: 'voucher', voucher, check: null };
    const released = await this.#call(() => this.#bridge.releaseVoucher({ voucherUuid: voucher.uuid, reason }));
    if (!released) return;
    // A confirm whose answer was lost had landed after all: say so rather than offer it again.
    if (released.outcome === 'redeemed') this.#showRedeemed(released);
    this.notice = `release.${released.outcome}`;
  }

  #showRedeemed({ voucher, redeemedAt, proof, slip }: { voucher: VoucherView; redeemedAt: string; proof: RedemptionProof | null; slip: SlipResult }) {
    this.screen = { name: 'redeemed', voucher, redeemedAt, proof, slip };
    if (this.shopper) void this.#refreshHome();
  }

  /** Back to the shopper's home; with nobody identified, back to the start, their own choices kept. */
  async goHome() {
    if (!this.shopper) return this.#startOver();
    this.problem = null;
    this.notice = null;
    this.screen = { name: 'home' };
  }

  /** "Another voucher" after a redemption: home, on the shorter idle time of a shopper nearly done. */
  async anotherVoucher() {
    await this.goHome();
    if (this.shopper) this.afterRedemption = true;
  }

  showEmail() {
    this.problem = null;
    this.screen = { name: 'email' };
  }

  showTypeCode() {
    this.problem = null;
    this.screen = { name: 'type-code' };
  }

  showSamples() {
    this.problem = null;
    this.screen = { name: 'samples' };
  }

  showRegister() {
    this.problem = null;
    this.screen = { name: 'register' };
  }

  /** A session of `mode` on the platform's hosted page; redeem-giftcards asks for the amount first. */
  async startHostedSession(mode: KioskMode, amountInCents?: number) {
    if (mode === 'redeem-giftcards' && amountInCents === undefined) {
      this.screen = { name: 'amount' };
      return;
    }
    const session = await this.#call(() =>
      this.#bridge.startPortalSession({ mode, contactUuid: this.shopper?.contactUuid, amountInCents }),
    );
    if (session) this.#showSession(session, mode);
  }

  /** After a renderer reload or from a deep link: named as before the reload, when it was this page's. */
  async reopenSession(uuid: string) {
    const session = await this.#call(() => this.#bridge.getPortalSession({ uuid }));
    const mode = KioskMode.safeParse(this.#storage.getItem(PORTAL_MODE_KEY));
    if (session) this.#showSession(session, mode.success && this.rememberedSession() === uuid ? mode.data : null);
    else this.#forgetSession();
  }

  rememberedSession(): string | null {
    return this.#storage.getItem(PORTAL_SESSION_KEY);
  }

  /** A reload cut the last visit short (main has settled it): the shopper is asked to start again. */
  showInterrupted() {
    this.screen = { name: 'interrupted' };
  }

  /** The shopper asks the kiosk to call staff about `reason`, on screen; a call that did not go can be made again. */
  async callStaff(reason: StaffReason) {
    if (this.staffCalledFor === reason) return;
    this.staffCalledFor = reason;
    const called = await this.#bridge.callStaff({ reason, locale: this.#locale() });
    if (!called.ok && this.staffCalledFor === reason) this.staffCalledFor = null;
  }

  /**
   * Idle, done or out of service: every lock goes back and nothing of this shopper stays on screen,
   * not even their language or speech mode.
   */
  async reset() {
    this.#choices.forget();
    await this.#startOver();
  }

  /** Back to the attract screen with nothing of the shopper's data: locks go back, the visit's log ends. */
  async #startOver() {
    this.#generation++;
    const held = this.screen.name === 'confirm' ? this.screen.voucher.uuid : null;
    this.screen = { name: 'attract' };
    this.shopper = null;
    this.afterRedemption = false;
    this.creditBalance = null;
    this.vouchers = null;
    this.problem = null;
    this.notice = null;
    this.staffCalledFor = null;
    this.#pending = 0;
    this.#unlinkedCard = null;
    this.#queuedScan = null;
    this.#forgetSession();
    if (held) await this.#bridge.releaseVoucher({ voucherUuid: held, reason: 'idle' });
    await this.#bridge.endVisit();
  }

  async #onLookup(found: LookupResult, value: string) {
    // As main keeps it: joining links only the card looked up last.
    this.#unlinkedCard = found.kind === 'unlinked_card' ? value : null;
    switch (found.kind) {
      case 'shopper':
        return this.#identified(found.shopper);
      case 'voucher':
        return this.openVoucher(found.voucher);
      case 'unlinked_card': {
        const offerJoin = this.#settings()?.session.enable_registration ?? false;
        this.screen = { name: 'notice', problem: 'problem.card.unlinked', offerJoin };
        return;
      }
      case 'inactive_card':
        this.screen = { name: 'notice', problem: 'problem.card.inactive', offerJoin: false };
        return;
      case 'unknown':
        this.screen = { name: 'notice', problem: 'problem.code.unknown', offerJoin: false };
        return;
      case 'setup_card':
        this.screen = { name: 'notice', problem: 'problem.card.setup', offerJoin: false };
    }
  }

  async #identified(shopper: ShopperView) {
    this.shopper = shopper;
    this.problem = null;
    // A contact-less voucher on screen waits for exactly this: stay on it, checked for this shopper now.
    if (this.screen.name === 'voucher') return this.openVoucher(this.screen.voucher);
    // A kiosk of hosted pages only: a card starts its first mode's page, for this shopper.
    if (!this.native) return this.startHostedSession(this.hostedModes[0]!);
    // The visit's portal session only tags it in the kiosk's log (the kiosk serves it on its own
    // screens): it is made beside the home's balance and vouchers, never in front of them, and
    // a session the platform does not make is no problem of the shopper's.
    this.screen = { name: 'home' };
    await Promise.all([this.#call(() => this.#bridge.startPortalSession({ contactUuid: shopper.contactUuid }), { quiet: true }), this.#refreshHome()]);
  }

  async #refreshHome() {
    const shopper = this.shopper;
    if (!shopper) return;
    const [balance] = await Promise.all([
      this.#call(() => this.#bridge.getCreditBalance({ contactUuid: shopper.contactUuid }), { quiet: true }),
      this.loadVouchers(1),
    ]);
    if (balance && this.shopper === shopper) this.creditBalance = balance.creditBalance;
  }

  #showSession(session: PortalSessionView, mode: KioskMode | null) {
    this.#storage.setItem(PORTAL_SESSION_KEY, session.uuid);
    if (mode) this.#storage.setItem(PORTAL_MODE_KEY, mode);
    else this.#storage.removeItem(PORTAL_MODE_KEY);
    this.screen = { name: 'portal', session, mode };
  }

  #forgetSession() {
    this.#storage.removeItem(PORTAL_SESSION_KEY);
    this.#storage.removeItem(PORTAL_MODE_KEY);
  }

  #takeQueuedScan() {
    const scan = this.#queuedScan;
    if (!scan || this.busy) return;
    this.#queuedScan = null;
    void this.scan(scan);
  }

  #contactFor(voucher: VoucherView): string | undefined {
    return voucher.hasContact ? undefined : this.shopper?.contactUuid;
  }

  /**
   * Runs one bridge call for this visit: busy while it runs, its failure becomes the screen's
   * problem, and its answer is dropped when the visit was reset meanwhile.
   */
  async #call<T>(run: () => Promise<BridgeResult<T>>, { quiet = false } = {}): Promise<T | null> {
    const generation = this.#generation;
    this.#pending++;
    this.problem = null;
    this.notice = null;
    let result: BridgeResult<T>;
    try {
      result = await run();
    } finally {
      if (generation === this.#generation) {
        this.#pending--;
        // After this call's own follow-up (a screen change, the next call) has had its turn.
        if (this.#queuedScan) setTimeout(() => this.#takeQueuedScan());
      }
    }
    if (generation !== this.#generation) return null;
    if (result.ok) return result.value;
    // busy: the same action is already under way, and its own answer is what counts.
    if (!quiet && result.error.code !== 'busy') this.problem = problemForError(result.error as BridgeError);
    return null;
  }
}
