import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeConnection } from '../../main/bridge/dispatcher.std.ts';
import { isClearAnswer, managerCall } from './bridge-inputs.node.ts';
import { recordFuzzInputs } from './fuzz-budget.node.ts';
import { FUZZ_PIN, startFuzzKiosk, type FuzzKiosk } from './fuzz-kiosk.node.ts';

const SEED = 1_205_004;
/** With the locked gate's 7,000 (bridge.fuzz.test.ts), the bridge's 10,000. */
const INPUTS = 3_000;

/**
 * The store manager's calls with arbitrary and hostile payloads, through a console the PIN has
 * unlocked: past the gate, every handler must answer clearly (a crash is `internal`, a failure),
 * whatever the payload, and the kiosk must still serve a shopper afterwards.
 */
describe('bridge fuzz: the unlocked console', () => {
  let kiosk: FuzzKiosk;
  beforeAll(async () => {
    kiosk = await startFuzzKiosk();
  });
  afterAll(() => kiosk?.close());

  it(`answers ${INPUTS} hostile manager calls clearly and keeps working (seed ${SEED})`, async () => {
    const connection = new BridgeConnection('console-fuzz');
    const unclear: unknown[] = [];
    let ran = 0;
    let pin = FUZZ_PIN;
    try {
      await fc.assert(
        fc.asyncProperty(managerCall, async ({ call, payload }) => {
          ran++;
          // Open for each call (the PIN check is slow, so only when it is not): a call may have set another PIN.
          const status = await kiosk.services.dispatch('managerStatus', {}, connection);
          if (status.ok && !(status.value as { unlocked: boolean }).unlocked) await kiosk.services.dispatch('unlockManager', { pin }, connection);
          const result = await kiosk.services.dispatch(call, payload, connection);
          if (call === 'setManagerPin' && result.ok) pin = (payload as { pin: string }).pin;
          if (!isClearAnswer(result)) unclear.push({ call, result });
          return isClearAnswer(result);
        }),
        { seed: SEED, numRuns: INPUTS, endOnFailure: true },
      );
    } catch (error) {
      throw new Error(`console fuzz failed (seed ${SEED}): ${String(error)}`);
    } finally {
      recordFuzzInputs('bridge', SEED, ran);
    }
    expect(unclear).toEqual([]);
    expect(ran).toBe(INPUTS);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(kiosk.unhandled).toEqual([]);
    // Past the gate every time: the manager's own calls ran, restart and quit among them.
    expect(kiosk.hostCalls.restart + kiosk.hostCalls.quit).toBeGreaterThan(0);

    // Afterwards the kiosk still answers a shopper.
    await expect(kiosk.services.dispatch('getAppInfo', {}, new BridgeConnection('shopper'))).resolves.toMatchObject({ ok: true, value: { name: 'Loyalty Kiosk' } });
  }, 60_000);
});
