import { describe, expect, it } from 'vitest';
import type { BridgeResult } from '../../common/contract.std.ts';
import type { ManagerStatus } from '../../common/manager-views.std.ts';
import { ManagerConsole, type ConsoleBridge } from './console.svelte.ts';
import { managerStatus } from '../../test/support/factories.std.ts';

const ok = <T>(value: T): BridgeResult<T> => ({ ok: true, value });
const STATUS: ManagerStatus = managerStatus();

describe('the manager console', () => {
  it('ends the visit as the shopper screens come back, not after main answers: a scan made then is the next visit\'s (#19)', async () => {
    let answerLock!: () => void;
    const bridge: ConsoleBridge = {
      managerStatus: async () => ok(STATUS),
      unlockManager: async () => ok(STATUS),
      startSetup: async () => ok(STATUS),
      // Not asked for by closing.
      getConsoleSettings: async () => ({ ok: false, error: { code: 'forbidden', message: 'locked' } }),
      // A busy kiosk: main answers the lock only when the test says.
      lockManager: () => new Promise((resolve) => (answerLock = () => resolve(ok(null)))),
    };
    const visitsEnded: string[] = [];
    const managerConsole = new ManagerConsole(async () => void visitsEnded.push('ended'), bridge);
    managerConsole.unlocked(STATUS);

    const closing = managerConsole.close();
    // The shopper screens are back at once, and the visit has ended already: a reset still to come
    // would drop the answer to whatever the next shopper scans now.
    expect(managerConsole.active).toBe(false);
    expect(visitsEnded).toEqual(['ended']);
    answerLock();
    await closing;
    expect(visitsEnded).toEqual(['ended']);
  });

  it('opens a fresh kiosk\'s wizard with the setup code, and asks for it again once its session ran out (#34 §2)', async () => {
    let unlocked = false;
    const bridge: ConsoleBridge = {
      managerStatus: async () => ok({ ...STATUS, pinSet: false, unlocked }),
      unlockManager: async () => ok(STATUS),
      startSetup: async ({ code }) => ok({ ...STATUS, pinSet: false, unlocked: (unlocked = code === '12345678') }),
      getConsoleSettings: async () => ({ ok: false, error: { code: 'forbidden', message: 'enter the setup code first' } }),
      lockManager: async () => ok(null),
    };
    const managerConsole = new ManagerConsole(async () => {}, bridge);
    await managerConsole.open();
    expect([managerConsole.phase, managerConsole.status?.unlocked]).toEqual(['wizard', false]);
    await managerConsole.startSetup('87654321');
    expect([managerConsole.phase, managerConsole.status?.unlocked]).toEqual(['wizard', false]);
    await managerConsole.startSetup('12345678');
    expect([managerConsole.phase, managerConsole.status?.unlocked]).toEqual(['wizard', true]);

    unlocked = false;
    await managerConsole.call(() => bridge.getConsoleSettings());
    expect([managerConsole.phase, managerConsole.status?.unlocked]).toEqual(['wizard', false]);
  });

  it('takes a wizard whose call main refuses back to the PIN pad: a PIN set elsewhere ended its first run (#28 §4)', async () => {
    let pinSet = false;
    const bridge: ConsoleBridge = {
      managerStatus: async () => ok({ ...STATUS, pinSet, unlocked: false }),
      unlockManager: async () => ok(STATUS),
      startSetup: async () => ok(STATUS),
      getConsoleSettings: async () => ({ ok: false, error: { code: 'forbidden', message: 'the console is locked' } }),
      lockManager: async () => ok(null),
    };
    const managerConsole = new ManagerConsole(async () => {}, bridge);
    await managerConsole.open();
    expect(managerConsole.phase).toBe('wizard');

    pinSet = true;
    await managerConsole.call(() => bridge.getConsoleSettings());
    expect(managerConsole.phase).toBe('pin');
    expect(managerConsole.status).toMatchObject({ pinSet: true, unlocked: false });
  });
});
