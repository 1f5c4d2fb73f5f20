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
