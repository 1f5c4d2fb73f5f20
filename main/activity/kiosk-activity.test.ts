import { describe, expect, it } from 'vitest';
import { BridgeConnection } from '../bridge/dispatcher.std.ts';
import { KioskActivity } from './kiosk-activity.std.ts';

describe('KioskActivity', () => {
  it('is idle only when every screen shows the attract screen and no lock is held', () => {
    let locks = 0;
    const activity = new KioskActivity({ locksHeld: () => locks, now: () => 42 });
    const window = new BridgeConnection('window-1');
    const tab = new BridgeConnection('ws-1');
    expect(activity.screen()).toBe('none');
    expect(activity.attractReachedAt()).toBeNull();

    activity.report(window, 'attract');
    activity.report(tab, 'visit');
    expect(activity.screen()).toBe('visit');
    expect(activity.isIdle()).toBe(false);
    expect(activity.attractReachedAt()).toBe(42);

    activity.report(tab, 'console');
    expect(activity.isIdle()).toBe(false);
    // A tab that closes mid-visit cannot keep the kiosk busy for ever.
    activity.forget(tab);
    expect(activity.isIdle()).toBe(true);

    locks = 1;
    expect(activity.isIdle()).toBe(false);
  });

  it('keeps a call for staff until the calling screen moves on, a manager comes, or the screen goes (#33 §11)', () => {
    let now = 100;
    const activity = new KioskActivity({ locksHeld: () => 0, now: () => now });
    const [window, tab] = [new BridgeConnection('window-1'), new BridgeConnection('ws-1')];
    const changes: Array<ReturnType<KioskActivity['staffCall']>> = [];
    activity.onChange(() => changes.push(activity.staffCall()));
    activity.report(window, 'attract');
    activity.report(tab, 'visit');

    // Called from the attract screen (a blocked card): it stands while that screen shows attract.
    expect(activity.callStaff(window, 'problem.card.inactive')).toBe(true);
    now = 200;
    // The same call again from the same screen is not a new one: it keeps its time, and nobody is told.
    expect(activity.callStaff(window, 'problem.card.inactive')).toBe(false);
    expect(activity.callStaff(tab, 'problem.redeem.unavailable')).toBe(true);
    expect(activity.staffCall()).toEqual({ since: 100, reason: 'problem.card.inactive' });
    activity.report(window, 'attract');
    expect(activity.staffCall()).toEqual({ since: 100, reason: 'problem.card.inactive' });
    // The next shopper starts a visit there: that call is over; the other screen's stands.
    activity.report(window, 'visit');
    expect(activity.staffCall()).toEqual({ since: 200, reason: 'problem.redeem.unavailable' });
    activity.forget(tab);
    expect(activity.staffCall()).toBeNull();

    activity.callStaff(window, 'problem.printer.unavailable');
    activity.report(tab, 'console');
    expect(activity.staffCall()).toBeNull();
    // Each change was told, for the fleet's health.
    expect(changes.map((call) => call?.reason ?? null)).toEqual([
      null,
      null,
      'problem.card.inactive',
      'problem.card.inactive',
      'problem.redeem.unavailable',
      null,
      'problem.printer.unavailable',
      null,
    ]);
  });

  it('whenIdle resolves at the next idle moment, from a screen change or a released lock, or gives up', async () => {
    let locks = 1;
    const activity = new KioskActivity({ locksHeld: () => locks });
    const window = new BridgeConnection('window-1');
    activity.report(window, 'visit');

    const changes: string[] = [];
    activity.onChange(() => changes.push(activity.screen()));
    const waiting = activity.whenIdle({ timeoutMs: 2_000, pollMs: 10 });
    activity.report(window, 'attract');
    expect(changes).toEqual(['attract']);
    setTimeout(() => (locks = 0), 50);
    await expect(waiting).resolves.toBe(true);

    locks = 1;
    await expect(activity.whenIdle({ timeoutMs: 60, pollMs: 10 })).resolves.toBe(false);
  });
});
