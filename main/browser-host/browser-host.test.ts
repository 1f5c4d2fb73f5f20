import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { KioskServices } from '../kiosk-services.node.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { EventBus } from '../bridge/event-bus.std.ts';
import { KioskActivity } from '../activity/kiosk-activity.std.ts';
import { VisitInterruptions } from '../supervision/visit-interruptions.std.ts';
import { openBridge, startInProcessHost, type InProcessHost } from '../../test/support/browser-host-in-process.node.ts';
import { rawExchange } from '../../test/support/raw-http.node.ts';
import { startBrowserHost } from './browser-host.node.ts';
import { setupCode } from '../manager/setup-code.node.ts';
import { PAGE_RELOAD_EVENT } from '../../common/browser-bridge-protocol.std.ts';

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
      await expect(manager.call('startSetup', { code: setupCode(running.services.dataDir) })).resolves.toMatchObject({ ok: true, value: { unlocked: true } });
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

describe('browser host page reload', () => {
  let running: InProcessHost;

  beforeAll(async () => {
    running = await startInProcessHost();
  });
  afterAll(async () => {
    await running?.close();
  });

  it('tells every open page, and only through its own bridge, to load itself afresh', async () => {
    const pages = [await openBridge(running.host), await openBridge(running.host)];
    try {
      const told = pages.map(
        ({ socket }) => new Promise((resolve) => socket.on('message', (data) => JSON.parse(String(data)).event === PAGE_RELOAD_EVENT && resolve(true))),
      );
      expect(running.host.reloadPages()).toBe(2);
      await expect(Promise.all(told)).resolves.toEqual([true, true]);
    } finally {
      for (const page of pages) page.close();
    }
  });
});

describe('browser host requests', () => {
  let running: InProcessHost;
  let port: number;

  beforeAll(async () => {
    running = await startInProcessHost();
    port = Number(new URL(running.host.origin).port);
  });
  afterAll(async () => {
    await running?.close();
  });

  const pagePath = () => new URL(running.host.url).pathname + new URL(running.host.url).search;
  const get = (target: string, host: string, extra = '') => rawExchange(port, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\n${extra}Connection: close\r\n\r\n`);
  const upgrade = (host: string) =>
    get(
      `/bridge${new URL(running.host.url).search}`,
      host,
      `Origin: ${running.host.origin}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n`,
    );

  it('serves the page and the bridge only to requests for 127.0.0.1 and its port', async () => {
    await expect(get(pagePath(), `127.0.0.1:${port}`)).resolves.toMatchObject({ status: 200 });
    await expect(upgrade(`127.0.0.1:${port}`)).resolves.toMatchObject({ status: 101 });
    // A DNS-rebound name, another port, localhost, none at all.
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, `localhost:${port}`, '127.0.0.1']) {
      await expect(get(pagePath(), host)).resolves.toMatchObject({ status: 421 });
      await expect(upgrade(host)).resolves.toMatchObject({ status: 421 });
    }
    await expect(rawExchange(port, `GET ${pagePath()} HTTP/1.1\r\n\r\n`)).resolves.toMatchObject({ status: 400 });
  });

  it('lets a launch link in once, by a redirect to the page with its token, and never again', async () => {
    const link = running.host.launchUrl();
    expect(link).not.toContain(new URL(running.host.url).searchParams.get('token'));
    const first = await fetch(link, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(new URL(first.headers.get('location')!, running.host.origin).href).toBe(running.host.url);
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(403);
    expect((await fetch(`${running.host.origin}/launch/made-up`, { redirect: 'manual' })).status).toBe(403);
  });

  it('lets a launch link in only within a minute of its making', async () => {
    const link = running.host.launchUrl();
    const later = Date.now() + 61_000;
    vi.spyOn(Date, 'now').mockReturnValue(later);
    try {
      expect((await fetch(link, { redirect: 'manual' })).status).toBe(403);
    } finally {
      vi.restoreAllMocks();
    }
  });
});

describe('browser host bridge failures', () => {
  it('listens while its services still start: what comes meanwhile is answered once they run, or dropped if they fail (#32)', async () => {
    const running = await startInProcessHost();
    const starting = (outcome: 'run' | 'fail') => {
      let settle!: () => void;
      const services = new Promise<KioskServices>((resolve, reject) => {
        settle = () => (outcome === 'run' ? resolve(running.services) : reject(new Error('the start failed')));
      });
      return { services, settle };
    };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-host-starting-'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<html><head></head><body>kiosk</body></html>');
    const hosts = [];
    try {
      const runs = starting('run');
      const host = await startBrowserHost({ services: runs.services, rendererDir: dir, bridgeScript: path.join(dir, 'index.html') });
      hosts.push(host);
      // The browser gets its link and comes before the services run: it is let in once they do.
      const page = fetch(host.launchUrl());
      const bridge = openBridge(host);
      runs.settle();
      const answered = await page;
      expect({ status: answered.status, url: answered.url, body: await answered.text() }).toMatchObject({ status: 200, url: host.url, body: expect.stringContaining('kiosk') });
      const connected = await bridge;
      await expect(connected.call('getAppInfo')).resolves.toMatchObject({ ok: true, value: { name: 'Loyalty Kiosk' } });
      connected.close();

      const fails = starting('fail');
      const failed = await startBrowserHost({ services: fails.services, rendererDir: dir, bridgeScript: path.join(dir, 'index.html') });
      hosts.push(failed);
      const dropped = fetch(failed.launchUrl()).then(() => 'answered', () => 'dropped');
      fails.settle();
      await expect(dropped).resolves.toBe('dropped');
    } finally {
      for (const host of hosts) await host.close();
      await running.close();
    }
  });

  it('keeps a call that fails inside the host from becoming an unhandled rejection', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-host-failing-'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<html><head></head></html>');
    const activity = new KioskActivity({ locksHeld: () => 0 });
    const failing = {
      dispatch: async () => {
        throw new Error('dispatch failed');
      },
      events: new EventBus(),
      logger: silentLogger,
      platformOrigin: () => null,
      activity,
      interruptions: new VisitInterruptions({ activity, endVisit: async () => {}, logger: silentLogger }),
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
