import { describe, expect, it, vi } from 'vitest';
import type { KioskMode, Locale } from '../../common/config-schema.std.ts';
import type { CallOutput } from '../../common/contract.std.ts';
import { Scan } from '../../common/scan.std.ts';
import type { ReleaseOutcome } from '../../common/shopper-views.std.ts';
import { CONFIRM_SECONDS, Visit, type VisitBridge } from './visit.svelte';
import { asksForStaff } from './staff-call.std.ts';
import { FakeBridge, ok, refused } from '../fake-bridge.test-support.ts';
import { kioskSettingsView, shopperView, voucherView } from '../../test/support/factories.std.ts';

type Name = keyof VisitBridge;

const SHOPPER = shopperView();
const VOUCHER = voucherView();
const LOCK = { voucherUuid: VOUCHER.uuid, lockedAt: '2026-11-24T10:00:00Z', systemReleaseAt: '2026-11-24T11:00:00Z', slip: { printer: 'ready' as const } };
const REDEEMED = {
  outcome: 'redeemed' as const,
  redeemedAt: '2026-11-24T10:00:30Z',
  voucher: { ...VOUCHER, status: 'REDEEMED' as const },
  proof: { code: '0000005724', seq: 2, at: '2026-11-24T10:00:30.120Z' },
  slip: { slip: 'printed' as const },
};
const SESSION = {
  uuid: '3a2b1c0d-9e8f-4a7b-8c6d-5e4f3a2b1c0d',
  url: 'https://portal.example.com/s/3a2b1c0d',
  origin: 'https://portal.example.com',
  contactUuid: null,
  shopName: 'Corner Shop',
};
const NOW = Date.parse('2026-11-24T10:00:00Z');

/** What the platform answers when nobody holds the call back: a known shopper with one voucher. */
const USUAL: { [N in Name]: CallOutput<N> } = {
  lookupScan: { kind: 'shopper', shopper: SHOPPER },
  identifyByEmail: { kind: 'shopper', shopper: SHOPPER },
  registerShopper: SHOPPER,
  linkJoinedCard: null,
  getCreditBalance: { creditBalance: 1250 },
  listShopperVouchers: { vouchers: [VOUCHER], page: 1, lastPage: 1, total: 1 },
  checkVoucher: { checked: true, valid: true, platformCode: null },
  lockVoucher: LOCK,
  redeemVoucher: REDEEMED,
  releaseVoucher: { outcome: 'released' },
  endVisit: null,
  startPortalSession: SESSION,
  getPortalSession: SESSION,
  callStaff: null,
};
const NAMES = Object.keys(USUAL) as Name[];
/** The usual answers, as the bridge gives them. */
const usualAnswers = () => Object.fromEntries(NAMES.map((name) => [name, ok(name, USUAL[name] as never)])) as ConstructorParameters<typeof FakeBridge<Name>>[0];

function settingsFor(modes: KioskMode[] = ['regular'], locale: Locale = 'nl') {
  const defaults = kioskSettingsView();
  return kioskSettingsView({
    modes,
    session: { ...defaults.session, enable_registration: true },
    locale: { default: locale, enabled: ['en', 'nl'] },
  });
}

/** A visit on a fake bridge; `storage` is the page's session storage (a reloaded page's: the one before). */
function visitWith({ modes = ['regular'] as KioskMode[], now = () => NOW } = {}, storage = new Map<string, string>()) {
  const bridge = new FakeBridge<Name>(usualAnswers());
  const forgotten: string[] = [];
  const visit = new Visit({
    bridge: bridge.api,
    storage: {
      getItem: (key) => storage.get(key) ?? null,
      setItem: (key, value) => void storage.set(key, value),
      removeItem: (key) => void storage.delete(key),
    },
    choices: { forget: () => void forgotten.push('choices') },
    confirmSeconds: () => CONFIRM_SECONDS,
    locale: () => 'nl',
    settings: () => settingsFor(modes),
    now,
  });
  return { visit, bridge, storage, forgotten };
}

const scan = (value: string): Scan => Scan.parse({ value, source: 'keyboard', at: NOW });

/** Scans the voucher's code and locks it: the confirm screen shows. */
async function onConfirm() {
  const parts = visitWith();
  parts.bridge.answer('lookupScan', ok('lookupScan', { kind: 'voucher', voucher: VOUCHER }));
  await parts.visit.scan(scan(VOUCHER.code));
  await parts.visit.redeem();
  expect(parts.visit.screen.name).toBe('confirm');
  return parts;
}

describe('confirming a voucher', () => {
  it('locks it, counts down from the lock, and redeems it on confirm', async () => {
    const { visit, bridge } = visitWith();
    bridge.answer('lookupScan', ok('lookupScan', { kind: 'voucher', voucher: VOUCHER }));
    await visit.scan(scan(VOUCHER.code));
    expect(visit.screen).toEqual({ name: 'voucher', voucher: VOUCHER, check: { checked: true, valid: true, platformCode: null } });

    await visit.redeem();
    expect(visit.screen).toEqual({ name: 'confirm', voucher: VOUCHER, lock: LOCK, deadline: NOW + CONFIRM_SECONDS * 1000 });
    expect(bridge.inputsOf('lockVoucher')).toEqual([{ voucherUuid: VOUCHER.uuid, code: VOUCHER.code }]);

    await visit.confirm();
    expect(visit.screen).toEqual({ name: 'redeemed', voucher: REDEEMED.voucher, redeemedAt: REDEEMED.redeemedAt, proof: REDEEMED.proof, slip: REDEEMED.slip });
    expect(bridge.inputsOf('redeemVoucher')).toEqual([{ voucherUuid: VOUCHER.uuid, locale: 'nl' }]);
    expect(visit.problem).toBeNull();
    expect(visit.busy).toBe(false);
  });

  it('stays on the confirm screen while the platform cannot say, and confirming again settles it', async () => {
    const { visit, bridge } = await onConfirm();
    bridge.answer('redeemVoucher', ok('redeemVoucher', { outcome: 'unsettled' }));
    await visit.confirm();
    expect(visit.screen.name).toBe('confirm');
    expect(visit.problem).toBe('problem.voucher.unsettled');

    await visit.confirm();
    expect(visit.screen.name).toBe('redeemed');
    expect(visit.problem).toBeNull();
    expect(bridge.inputsOf('redeemVoucher')).toHaveLength(2);
  });

  it('goes back to the voucher, saying so, when the lock was lost', async () => {
    const { visit, bridge } = await onConfirm();
    bridge.answer('redeemVoucher', ok('redeemVoucher', { outcome: 'lock_lost' }));
    await visit.confirm();
    expect(visit.screen).toEqual({ name: 'voucher', voucher: VOUCHER, check: null });
    expect(visit.problem).toBe('problem.voucher.lock_lost');
  });

  it('goes back to the voucher with the connection problem when the call failed', async () => {
    const { visit, bridge } = await onConfirm();
    bridge.answer('redeemVoucher', refused('network'));
    await visit.confirm();
    expect(visit.screen).toEqual({ name: 'voucher', voucher: VOUCHER, check: null });
    expect(visit.problem).toBe('problem.connection');
  });

  it('lets a second tap answered `busy` pass quietly: the first confirm answers', async () => {
    const { visit, bridge } = await onConfirm();
    const first = bridge.hold('redeemVoucher');
    bridge.answer('redeemVoucher', refused('busy'));
    const firstTap = visit.confirm();
    await visit.confirm();
    expect(visit.screen.name).toBe('confirm');
    expect(visit.problem).toBeNull();

    first.release(ok('redeemVoucher', REDEEMED));
    await firstTap;
    expect(visit.screen.name).toBe('redeemed');
    expect(visit.problem).toBeNull();
  });
});

describe('letting go of a locked voucher', () => {
  it.each(['cancel', 'timeout'] as const)('waits for a confirm already on its way instead of releasing on %s', async (reason) => {
    const { visit, bridge } = await onConfirm();
    const redeem = bridge.hold('redeemVoucher');
    const confirming = visit.confirm();
    await visit.cancelConfirm(reason);
    expect(bridge.inputsOf('releaseVoucher')).toEqual([]);
    expect(visit.screen.name).toBe('confirm');

    redeem.release(ok('redeemVoucher', REDEEMED));
    await confirming;
    expect(visit.screen.name).toBe('redeemed');
    expect(visit.notice).toBeNull();
  });


  it.each(['cancel', 'timeout'] as const)('gives the lock back on %s, leaving the confirm screen at once', async (reason) => {
    const { visit, bridge } = await onConfirm();
    const release = bridge.hold('releaseVoucher');
    const letGo = visit.cancelConfirm(reason);
    expect(visit.screen).toEqual({ name: 'voucher', voucher: VOUCHER, check: null });
    expect(bridge.inputsOf('releaseVoucher')).toEqual([{ voucherUuid: VOUCHER.uuid, reason }]);

    release.release(ok('releaseVoucher', { outcome: 'released' }));
    await letGo;
    expect(visit.notice).toBe('release.released');
    expect(visit.problem).toBeNull();
  });

  it.each(['released', 'lock_gone', 'retrying', 'not_held'] as const)('tells the shopper how it went: %s', async (outcome) => {
    const { visit, bridge } = await onConfirm();
    bridge.answer('releaseVoucher', ok('releaseVoucher', { outcome }));
    await visit.cancelConfirm('cancel');
    expect(visit.screen).toEqual({ name: 'voucher', voucher: VOUCHER, check: null });
    expect(visit.notice).toBe(`release.${outcome}`);
  });

  it('shows the voucher redeemed when a confirm whose answer was lost had landed after all', async () => {
    const { visit, bridge } = await onConfirm();
    const redeemed: ReleaseOutcome = REDEEMED;
    bridge.answer('releaseVoucher', ok('releaseVoucher', redeemed));
    await visit.cancelConfirm('cancel');
    expect(visit.screen).toEqual({ name: 'redeemed', voucher: REDEEMED.voucher, redeemedAt: REDEEMED.redeemedAt, proof: REDEEMED.proof, slip: REDEEMED.slip });
    expect(visit.notice).toBe('release.redeemed');
  });

  it('clears the notice with the next action', async () => {
    const { visit, bridge } = await onConfirm();
    bridge.answer('releaseVoucher', ok('releaseVoucher', { outcome: 'lock_gone' }));
    await visit.cancelConfirm('cancel');
    expect(visit.notice).toBe('release.lock_gone');
    await visit.redeem();
    expect(visit.notice).toBeNull();
    expect(visit.screen.name).toBe('confirm');
  });
});

describe('scans', () => {
  it('keeps the newest scan that comes during a call and takes it up once the call is over', async () => {
    const { visit, bridge } = visitWith();
    const first = bridge.hold('lookupScan');
    const firstScan = visit.scan(scan('CARD-1'));
    expect(visit.busy).toBe(true);

    await visit.scan(scan('NOT-THIS-ONE'));
    bridge.answer('lookupScan', ok('lookupScan', { kind: 'voucher', voucher: VOUCHER }));
    await visit.scan(scan(VOUCHER.code));
    expect(bridge.inputsOf('lookupScan')).toEqual([{ value: 'CARD-1', source: 'keyboard' }]);

    first.release(ok('lookupScan', { kind: 'unknown' }));
    await firstScan;
    expect(visit.screen).toEqual({ name: 'notice', problem: 'problem.code.unknown', offerJoin: false });

    await vi.waitFor(() => expect(visit.screen.name).toBe('voucher'));
    expect(bridge.inputsOf('lookupScan')).toEqual([{ value: 'CARD-1', source: 'keyboard' }, { value: VOUCHER.code, source: 'keyboard' }]);
  });

  it('identifies the shopper by card and shows their home with balance and vouchers', async () => {
    const { visit, bridge } = visitWith();
    await visit.scan(scan('CARD-1'));
    expect(visit.screen).toEqual({ name: 'home' });
    expect(visit.shopper).toEqual(SHOPPER);
    expect(visit.creditBalance).toBe(1250);
    expect(visit.vouchers?.vouchers).toEqual([VOUCHER]);
    expect(bridge.inputsOf('startPortalSession')).toEqual([{ contactUuid: SHOPPER.contactUuid }]);
  });

  it('says a typed number was typed, so the ledger can tell it from a card', async () => {
    const { visit, bridge } = visitWith();
    await visit.typeCode('CARD-1');
    expect(visit.screen).toEqual({ name: 'home' });
    expect(bridge.inputsOf('lookupScan')).toEqual([{ value: 'CARD-1', source: 'typed' }]);
  });

  it('tells the one holding a setup card that it is for staff, and offers to call them', async () => {
    const { visit, bridge } = visitWith();
    bridge.answer('lookupScan', ok('lookupScan', { kind: 'setup_card' }));
    await visit.scan(scan('LKSETUP1.sealed'));
    expect(visit.screen).toEqual({ name: 'notice', problem: 'problem.card.setup', offerJoin: false });
    expect(asksForStaff('problem.card.setup')).toBe(true);
  });

  it('offers to join on an unlinked card and links it to the new contact', async () => {
    const { visit, bridge } = visitWith();
    bridge.answer('lookupScan', ok('lookupScan', { kind: 'unlinked_card' }));
    await visit.scan(scan('CARD-NEW'));
    expect(visit.screen).toEqual({ name: 'notice', problem: 'problem.card.unlinked', offerJoin: true });
    expect(visit.linksCardOnJoin).toBe(true);

    // The link goes beside the home's loading, not in front of it.
    const linking = bridge.hold('linkJoinedCard');
    const joining = visit.register('new@example.nl');
    await vi.waitFor(() => expect(bridge.inputsOf('listShopperVouchers')).toHaveLength(1));
    expect(bridge.inputsOf('registerShopper')).toEqual([{ email: 'new@example.nl', consent: true }]);
    expect(bridge.inputsOf('linkJoinedCard')).toHaveLength(1);
    expect(bridge.inputsOf('getCreditBalance')).toHaveLength(1);
    linking.release(ok('linkJoinedCard', null));
    await joining;
    expect(visit.linksCardOnJoin).toBe(false);
    expect(visit.screen.name).toBe('home');
    expect(visit.problem).toBeNull();
  });

  it('says on the home screen when the card could not be linked after joining', async () => {
    const { visit, bridge } = visitWith();
    bridge.answer('lookupScan', ok('lookupScan', { kind: 'unlinked_card' }));
    await visit.scan(scan('CARD-NEW'));
    bridge.answer('linkJoinedCard', refused('network'));
    await visit.register('new@example.nl');
    expect(visit.screen.name).toBe('home');
    expect(visit.vouchers?.vouchers).toEqual([VOUCHER]);
    expect(visit.problem).toBe('problem.connection');
  });

  it('joins without a link when no unlinked card was scanned last', async () => {
    const { visit, bridge } = visitWith();
    bridge.answer('lookupScan', ok('lookupScan', { kind: 'unlinked_card' }));
    await visit.scan(scan('CARD-NEW'));
    bridge.answer('lookupScan', ok('lookupScan', { kind: 'unknown' }));
    await visit.scan(scan('NOT-A-CARD'));
    expect(visit.linksCardOnJoin).toBe(false);
    await visit.register('new@example.nl');
    expect(bridge.inputsOf('linkJoinedCard')).toEqual([]);
  });

  it('is not taken up on the confirm screen', async () => {
    const { visit, bridge } = await onConfirm();
    await visit.scan(scan('CARD-1'));
    expect(bridge.inputsOf('lookupScan')).toHaveLength(1);
    expect(visit.screen.name).toBe('confirm');
  });
});

describe('an e-mail address', () => {
  it('is sent once: a second Continue, Done or Enter while the first is on its way is dropped', async () => {
    const { visit, bridge } = visitWith();
    const identify = bridge.hold('identifyByEmail');
    const first = visit.identifyByEmail('shopper@example.nl');
    await visit.identifyByEmail('shopper@example.nl');
    identify.release(ok('identifyByEmail', { kind: 'shopper', shopper: SHOPPER }));
    await first;
    expect(bridge.inputsOf('identifyByEmail')).toEqual([{ email: 'shopper@example.nl' }]);
    expect(visit.screen).toEqual({ name: 'home' });
  });

  it('makes one contact: a second Join while the first is on its way is dropped', async () => {
    const { visit, bridge } = visitWith();
    const registering = bridge.hold('registerShopper');
    const first = visit.register('new@example.nl');
    await visit.register('new@example.nl');
    registering.release(ok('registerShopper', SHOPPER));
    await first;
    expect(bridge.inputsOf('registerShopper')).toHaveLength(1);
    expect(visit.screen).toEqual({ name: 'home' });
  });
});

describe('a reset', () => {
  it('drops an answer that arrives for the visit before it', async () => {
    const { visit, bridge } = visitWith();
    const lookup = bridge.hold('lookupScan');
    const scanned = visit.scan(scan('CARD-1'));
    await visit.reset();

    lookup.release(ok('lookupScan', { kind: 'shopper', shopper: SHOPPER }));
    await scanned;
    expect(visit.screen).toEqual({ name: 'attract' });
    expect(visit.shopper).toBeNull();
    expect(visit.busy).toBe(false);
    expect(bridge.names()).not.toContain('startPortalSession');
  });

  it('stays on attract when it comes while the shopper’s home is being loaded', async () => {
    const { visit, bridge } = visitWith();
    const vouchers = bridge.hold('listShopperVouchers');
    const scanned = visit.scan(scan('CARD-1'));
    await vi.waitFor(() => expect(bridge.names()).toContain('listShopperVouchers'));
    await visit.reset();

    vouchers.release(ok('listShopperVouchers', { vouchers: [VOUCHER], page: 1, lastPage: 1, total: 1 }));
    await scanned;
    expect(visit.screen).toEqual({ name: 'attract' });
    expect(visit.shopper).toBeNull();
    expect(visit.vouchers).toBeNull();
  });

  it('loads the shopper’s home beside the portal session, not after it, and a session not made is no problem of theirs', async () => {
    const { visit, bridge } = visitWith();
    const session = bridge.hold('startPortalSession');
    const scanned = visit.scan(scan('CARD-1'));
    // The balance and the vouchers are asked while the session is still being made.
    await vi.waitFor(() => expect(visit.vouchers?.vouchers).toEqual([VOUCHER]));
    expect(bridge.names()).toEqual(expect.arrayContaining(['startPortalSession', 'getCreditBalance', 'listShopperVouchers']));
    expect(visit.screen).toEqual({ name: 'home' });
    session.release(refused('network'));
    await scanned;
    expect(visit.problem).toBeNull();
    expect(visit.screen).toEqual({ name: 'home' });
  });

  it('drops a refusal that arrives for the visit before it', async () => {
    const { visit, bridge } = visitWith();
    const identify = bridge.hold('identifyByEmail');
    const identifying = visit.identifyByEmail('shopper@example.nl');
    await visit.reset();

    identify.release(refused('network'));
    await identifying;
    expect(visit.problem).toBeNull();
    expect(visit.screen).toEqual({ name: 'attract' });
  });

  it('drops a scan that was waiting for the visit before it', async () => {
    const { visit, bridge } = visitWith();
    const lookup = bridge.hold('lookupScan');
    const scanned = visit.scan(scan('CARD-1'));
    await visit.scan(scan(VOUCHER.code));
    await visit.reset();
    lookup.release(ok('lookupScan', { kind: 'unknown' }));
    await scanned;
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(bridge.inputsOf('lookupScan')).toEqual([{ value: 'CARD-1', source: 'keyboard' }]);
    expect(visit.screen).toEqual({ name: 'attract' });
  });
});

describe('after a redemption', () => {
  it('"Another voucher" goes home on the shorter idle time, and the visit\'s end forgets it', async () => {
    const { visit } = visitWith();
    await visit.scan(scan('CARD-1'));
    await visit.openVoucher(VOUCHER);
    await visit.redeem();
    await visit.confirm();
    expect(visit.screen.name).toBe('redeemed');
    expect(visit.afterRedemption).toBe(false);
    await visit.anotherVoucher();
    expect(visit.screen).toEqual({ name: 'home' });
    expect(visit.afterRedemption).toBe(true);
    await visit.reset();
    expect(visit.afterRedemption).toBe(false);
  });
});

describe('more time to confirm', () => {
  it('starts the countdown again from full, while the platform holds the lock a minute longer than it', async () => {
    let now = NOW;
    const { visit, bridge } = visitWith({ now: () => now });
    bridge.answer('lookupScan', ok('lookupScan', { kind: 'voucher', voucher: VOUCHER }));
    await visit.scan(scan(VOUCHER.code));
    await visit.redeem();
    now += 50_000;
    expect(visit.moreTime()).toBe(true);
    expect(visit.screen).toMatchObject({ name: 'confirm', deadline: now + CONFIRM_SECONDS * 1000 });
    // The platform lets the lock go at 11:00: no countdown may run past 10:59.
    const extended = now + CONFIRM_SECONDS * 1000;
    now = Date.parse('2026-11-24T10:58:30Z');
    expect(visit.moreTime()).toBe(false);
    expect(visit.screen).toMatchObject({ name: 'confirm', deadline: extended });
  });
});

describe('idle', () => {
  it('gives a held lock back, ends the visit and forgets the shopper, their session and their own choices', async () => {
    const { visit, bridge, storage, forgotten } = visitWith();
    await visit.scan(scan('CARD-1'));
    await visit.openVoucher(VOUCHER);
    await visit.redeem();
    storage.set('kiosk.portalSession', SESSION.uuid);

    await visit.reset();
    expect(bridge.names().slice(-2)).toEqual(['releaseVoucher', 'endVisit']);
    expect(bridge.inputsOf('releaseVoucher')).toEqual([{ voucherUuid: VOUCHER.uuid, reason: 'idle' }]);
    expect(visit.screen).toEqual({ name: 'attract' });
    expect(visit.shopper).toBeNull();
    expect(visit.creditBalance).toBeNull();
    expect(visit.vouchers).toBeNull();
    expect(visit.problem).toBeNull();
    expect(visit.notice).toBeNull();
    expect(visit.rememberedSession()).toBeNull();
    expect(forgotten).toEqual(['choices']);
  });

  it('keeps the shopper\'s own choices (language, speech) when Back leads to the start, and forgets their data', async () => {
    const { visit, bridge, forgotten } = visitWith();
    visit.showTypeCode();
    await visit.goHome();
    expect(visit.screen).toEqual({ name: 'attract' });
    expect(bridge.names().at(-1)).toBe('endVisit');
    expect(forgotten).toEqual([]);
  });

  it('releases nothing when no lock is held', async () => {
    const { visit, bridge } = visitWith();
    await visit.scan(scan('CARD-1'));
    await visit.reset();
    expect(bridge.names()).not.toContain('releaseVoucher');
    expect(bridge.names().at(-1)).toBe('endVisit');
  });
});

describe('hosted sessions', () => {
  it('remembers the session on screen and what it is for, so a reload goes back to it, named as before (#33 §2)', async () => {
    const { visit, bridge, storage } = visitWith({ modes: ['credit-reception'] });
    await visit.scan(scan('CARD-1'));
    expect(visit.screen).toEqual({ name: 'portal', session: SESSION, mode: 'credit-reception' });
    expect(bridge.inputsOf('startPortalSession')).toEqual([{ mode: 'credit-reception', contactUuid: SHOPPER.contactUuid }]);
    expect(visit.rememberedSession()).toBe(SESSION.uuid);

    const reloaded = visitWith({ modes: ['credit-reception'] }, storage);
    reloaded.bridge.answer('getPortalSession', ok('getPortalSession', SESSION));
    await reloaded.visit.reopenSession(SESSION.uuid);
    expect(reloaded.visit.screen).toEqual({ name: 'portal', session: SESSION, mode: 'credit-reception' });
    // A mode some other script left in the storage names nothing.
    storage.set('kiosk.portalMode', 'no-such-mode');
    await reloaded.visit.reopenSession(SESSION.uuid);
    expect(reloaded.visit.screen).toEqual({ name: 'portal', session: SESSION, mode: null });
  });

  it('forgets a remembered session the platform no longer has', async () => {
    const { visit, bridge, storage } = visitWith({ modes: ['credit-reception'] });
    storage.set('kiosk.portalSession', SESSION.uuid);
    bridge.answer('getPortalSession', refused('not_found'));
    await visit.reopenSession(SESSION.uuid);
    expect(visit.rememberedSession()).toBeNull();
    expect(visit.screen).toEqual({ name: 'attract' });
  });

  it('asks for the amount first when redeeming a gift card', async () => {
    const { visit, bridge } = visitWith({ modes: ['redeem-giftcards'] });
    await visit.startHostedSession('redeem-giftcards');
    expect(visit.screen).toEqual({ name: 'amount' });
    await visit.startHostedSession('redeem-giftcards', 1500);
    expect(bridge.inputsOf('startPortalSession')).toEqual([{ mode: 'redeem-giftcards', amountInCents: 1500 }]);
    expect(visit.screen.name).toBe('portal');
  });

  it('offers the hosted modes in the configured order, and a card on a hosted-only kiosk starts the first', async () => {
    expect(visitWith({ modes: ['pay-prepaid', 'regular', 'credit-reception', 'vouchers'] }).visit.hostedModes).toEqual(['pay-prepaid', 'credit-reception']);
    expect(visitWith({ modes: ['pay-prepaid', 'regular', 'credit-reception', 'vouchers'] }).visit.modes).toEqual(['pay-prepaid', 'regular', 'credit-reception', 'vouchers']);
    const { visit, bridge } = visitWith({ modes: ['top-up-prepaid', 'credit-reception'] });
    expect(visit.native).toBe(false);
    await visit.scan(scan('CARD-1'));
    expect(bridge.inputsOf('startPortalSession')).toEqual([{ mode: 'top-up-prepaid', contactUuid: SHOPPER.contactUuid }]);
  });

  it('on a native kiosk, home\'s tiles each start their own mode for the shopper; the visit\'s own session names none', async () => {
    const { visit, bridge } = visitWith({ modes: ['regular', 'credit-reception', 'pay-prepaid'] });
    expect(visit.native).toBe(true);
    await visit.scan(scan('CARD-1'));
    expect(visit.screen.name).toBe('home');
    await visit.startHostedSession('pay-prepaid');
    expect(bridge.inputsOf('startPortalSession')).toEqual([
      { contactUuid: SHOPPER.contactUuid },
      { mode: 'pay-prepaid', contactUuid: SHOPPER.contactUuid },
    ]);
  });
});

describe('calling staff (#33 §11)', () => {
  it('calls once per problem, in the shopper\'s language; a call that failed can be made again; a new visit forgets it', async () => {
    const { visit, bridge } = visitWith();
    bridge.answer('callStaff', refused('unavailable'), ok('callStaff', null));
    await visit.callStaff('problem.card.inactive');
    expect(visit.staffCalledFor).toBeNull();
    await visit.callStaff('problem.card.inactive');
    await visit.callStaff('problem.card.inactive');
    expect(visit.staffCalledFor).toBe('problem.card.inactive');
    expect(bridge.inputsOf('callStaff')).toEqual([
      { reason: 'problem.card.inactive', locale: 'nl' },
      { reason: 'problem.card.inactive', locale: 'nl' },
    ]);

    await visit.reset();
    expect(visit.staffCalledFor).toBeNull();
  });
});
