import { describe, expect, it } from 'vitest';
import { HOSTED_PAGE_IDLE_SECONDS, IDLE_WARNING_SECONDS, idleWatch, type IdleSituation } from './idle-policy.std.ts';

const BUSY: IdleSituation = {
  screen: 'home',
  personal: false,
  afterRedemption: false,
  idleTimeoutSeconds: 60,
  idleAfterRedeemSeconds: 15,
  timeFactor: 1,
};

describe('the idle policy', () => {
  it('leaves an untouched attract screen alone, and watches one a shopper made their own', () => {
    expect(idleWatch({ ...BUSY, screen: 'attract' })).toBeNull();
    expect(idleWatch({ ...BUSY, screen: 'attract', personal: true })).toEqual({ timeoutSeconds: 60, warningSeconds: IDLE_WARNING_SECONDS });
  });

  it('ends a visit sooner after a redemption', () => {
    expect(idleWatch({ ...BUSY, screen: 'home', afterRedemption: true })?.timeoutSeconds).toBe(15);
  });

  it('never asks "are you still there?" over the proof shown at the till: the redeemed screen ends the visit itself (#31 §2)', () => {
    expect(idleWatch({ ...BUSY, screen: 'redeemed', afterRedemption: true })).toBeNull();
    expect(idleWatch({ ...BUSY, screen: 'redeemed', personal: true })).toBeNull();
  });

  it('leaves the confirm screen to its own countdown: the idle guard starts afresh on the voucher screen it returns to (#33 §6)', () => {
    expect(idleWatch({ ...BUSY, screen: 'confirm' })).toBeNull();
    expect(idleWatch({ ...BUSY, screen: 'voucher' })).toEqual({ timeoutSeconds: 60, warningSeconds: IDLE_WARNING_SECONDS });
  });

  it('gives the hosted page, whose touches the kiosk cannot see, at least its own minimum', () => {
    expect(idleWatch({ ...BUSY, screen: 'portal' })?.timeoutSeconds).toBe(HOSTED_PAGE_IDLE_SECONDS);
    expect(idleWatch({ ...BUSY, screen: 'portal', idleTimeoutSeconds: 900 })?.timeoutSeconds).toBe(900);
  });

  it('runs every time faster by the time factor, the warning too', () => {
    expect(idleWatch({ ...BUSY, timeFactor: 0.1 })).toEqual({ timeoutSeconds: 6, warningSeconds: IDLE_WARNING_SECONDS * 0.1 });
  });
});
