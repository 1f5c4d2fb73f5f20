import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBridge, startInProcessHost, type InProcessHost } from '../../test/support/browser-host-in-process.node.ts';

describe('browser host bridge connections', () => {
  let running: InProcessHost;

  beforeAll(async () => {
    running = await startInProcessHost();
  });
  afterAll(async () => {
    await running?.close();
  });

  it('unlocks the console only for the WebSocket that entered the PIN', async () => {
    const [manager, other] = [await openBridge(running.host), await openBridge(running.host)];
    try {
      await expect(manager.call('setManagerPin', { pin: '2580' })).resolves.toMatchObject({ ok: true, value: { unlocked: true } });
      await expect(manager.call('getConsoleSettings')).resolves.toMatchObject({ ok: true });
      await expect(other.call('managerStatus')).resolves.toMatchObject({ ok: true, value: { pinSet: true, unlocked: false } });
      await expect(other.call('getConsoleSettings')).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
      await expect(other.call('quitKiosk')).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
      expect(running.hostCalls.quit).toBe(0);
    } finally {
      manager.close();
      other.close();
    }
  });
});
