import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KioskServices } from '../kiosk-services.node.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { EventBus } from '../bridge/event-bus.std.ts';
import { openBridge, startInProcessHost, type InProcessHost } from '../../test/support/browser-host-in-process.node.ts';
import { startBrowserHost } from './browser-host.node.ts';

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

describe('browser host bridge failures', () => {
  it('keeps a call that fails inside the host from becoming an unhandled rejection', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-host-failing-'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<html><head></head></html>');
    const failing = {
      dispatch: async () => {
        throw new Error('dispatch failed');
      },
      events: new EventBus(),
      logger: silentLogger,
      platformOrigin: () => null,
    } as unknown as KioskServices;
    const host = await startBrowserHost({ services: failing, rendererDir: dir, bridgeScript: path.join(dir, 'index.html') });
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const bridge = await openBridge(host);
      bridge.socket.send(JSON.stringify({ id: 1, call: 'getAppInfo', input: {} }));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(unhandled).toEqual([]);
      expect(bridge.socket.readyState).toBe(bridge.socket.OPEN);
      bridge.close();
    } finally {
      process.off('unhandledRejection', record);
      await host.close();
    }
  });
});
