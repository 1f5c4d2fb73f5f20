import { afterEach, describe, expect, it, vi } from 'vitest';
import { KioskActivity } from '../activity/kiosk-activity.std.ts';
import { BridgeConnection } from '../bridge/dispatcher.std.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { VisitInterruptions } from './visit-interruptions.std.ts';

function interruptions() {
  const activity = new KioskActivity({ locksHeld: () => 0 });
  const endVisit = vi.fn(async () => {});
  return { activity, endVisit, interruptions: new VisitInterruptions({ activity, endVisit, logger: silentLogger }) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('VisitInterruptions', () => {
  it('a screen gone mid-visit ends that visit at once and is told to the next screen to start, once', async () => {
    const { activity, endVisit, interruptions: subject } = interruptions();
    const window = new BridgeConnection('window-1');
    activity.report(window, 'visit');
    subject.screenGone(window);
    expect(activity.screenOf(window)).toBe('none');
    await expect(subject.takeInterrupted()).resolves.toBe(true);
    expect(endVisit).toHaveBeenCalledOnce();
    await expect(subject.takeInterrupted()).resolves.toBe(false);
  });

  it('a screen gone on the attract screen or the console, or one that never reported, interrupts nothing', async () => {
    const { activity, endVisit, interruptions: subject } = interruptions();
    const [attract, console, silent] = ['a', 'c', 's'].map((name) => new BridgeConnection(name)) as [BridgeConnection, BridgeConnection, BridgeConnection];
    activity.report(attract, 'attract');
    activity.report(console, 'console');
    for (const connection of [attract, console, silent]) subject.screenGone(connection);
    expect(endVisit).not.toHaveBeenCalled();
    await expect(subject.takeInterrupted()).resolves.toBe(false);
    expect(activity.screen()).toBe('none');
  });

  it('a browser tab gone mid-visit gets its grace: the visit ends once it is over, with nobody starting', async () => {
    vi.useFakeTimers();
    const { activity, endVisit, interruptions: subject } = interruptions();
    const tab = new BridgeConnection('ws-1');
    activity.report(tab, 'visit');
    subject.screenGone(tab, { graceMs: 3_000 });
    // Forgotten at once: a closed tab does not keep the kiosk busy during its grace.
    expect(activity.isIdle()).toBe(true);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(endVisit).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(endVisit).toHaveBeenCalledOnce();
    await expect(subject.takeInterrupted()).resolves.toBe(true);
  });

  it('a screen starting within the grace ends the gone visit then, and waits for its locks before it answers', async () => {
    const activity = new KioskActivity({ locksHeld: () => 1 });
    let settled!: () => void;
    const endVisit = vi.fn(() => new Promise<void>((resolve) => (settled = resolve)));
    const waiting = new VisitInterruptions({ activity, endVisit, logger: silentLogger });
    const tab = new BridgeConnection('ws-1');
    activity.report(tab, 'visit');
    waiting.screenGone(tab, { graceMs: 60_000 });
    let answer: boolean | undefined;
    const asked = waiting.takeInterrupted().then((interrupted) => (answer = interrupted));
    await vi.waitFor(() => expect(endVisit).toHaveBeenCalledOnce());
    expect(answer).toBeUndefined();
    settled();
    await asked;
    expect(answer).toBe(true);
  });

  it('a visit whose settling fails is still told (the journal keeps the lock for the next start)', async () => {
    const activity = new KioskActivity({ locksHeld: () => 1 });
    const subject = new VisitInterruptions({ activity, endVisit: async () => Promise.reject(new Error('offline')), logger: silentLogger });
    const window = new BridgeConnection('window-1');
    activity.report(window, 'visit');
    subject.screenGone(window);
    await expect(subject.takeInterrupted()).resolves.toBe(true);
  });

  it('close() drops the grace timers: nothing runs on closed services', async () => {
    vi.useFakeTimers();
    const { activity, endVisit, interruptions: subject } = interruptions();
    const tab = new BridgeConnection('ws-1');
    activity.report(tab, 'visit');
    subject.screenGone(tab, { graceMs: 3_000 });
    subject.close();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(endVisit).not.toHaveBeenCalled();
  });
});
