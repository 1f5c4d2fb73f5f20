import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { startBrowserHost, type BrowserHost } from '../../main/browser-host/browser-host.node.ts';
import { startKioskServices, type KioskServices } from '../../main/kiosk-services.node.ts';
import { KeytarSecretStore, SECRET_NAMES } from '../../main/secrets/secret-store.node.ts';
import { silentLogger } from '../../main/logging/logger.std.ts';
import { BROWSER_BRIDGE_PATH } from '../../common/browser-bridge-protocol.std.ts';
import type { BridgeResult } from '../../common/contract.std.ts';

export interface InProcessHost {
  host: BrowserHost;
  services: KioskServices;
  /** How often the console asked the host to restart or quit (they only count here). */
  hostCalls: { restart: number; quit: number };
  close(): Promise<void>;
}

/**
 * Real demo services (own data folder, own keychain service, never the user's) behind a real
 * browser host in this process, serving a stand-in page: for tests of the HTTP and WebSocket
 * surfaces that need no built renderer.
 */
export async function startInProcessHost(): Promise<InProcessHost> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-host-'));
  const rendererDir = path.join(dir, 'renderer');
  fs.mkdirSync(rendererDir);
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><html><head></head><body>kiosk</body></html>');
  const bridgeScript = path.join(dir, 'bridge.js');
  fs.writeFileSync(bridgeScript, '// bridge');
  const keychainService = `loyalty-kiosk-test-${crypto.randomUUID()}`;
  const hostCalls = { restart: 0, quit: 0 };
  const services = await startKioskServices({
    dataDir: path.join(dir, 'data'),
    version: 'test',
    keychainService,
    host: { restart: () => void hostCalls.restart++, quit: () => void hostCalls.quit++ },
  });
  const host = await startBrowserHost({ services, rendererDir, bridgeScript });
  return {
    host,
    services,
    hostCalls,
    async close() {
      await host.close();
      await services.close();
      const secrets = new KeytarSecretStore({ logger: silentLogger, service: keychainService });
      for (const name of SECRET_NAMES) await secrets.remove(name).catch(() => {});
    },
  };
}

export interface BridgeSocket {
  socket: WebSocket;
  call(name: string, input?: unknown): Promise<BridgeResult<any>>;
  /** The close code the host ended the connection with. */
  closed: Promise<number>;
  close(): void;
}

/** A bridge connection as the kiosk page opens it: its origin, its token. */
export async function openBridge(host: BrowserHost): Promise<BridgeSocket> {
  const token = new URL(host.url).searchParams.get('token')!;
  const socket = new WebSocket(`${host.origin.replace('http', 'ws')}${BROWSER_BRIDGE_PATH}?token=${token}`, { origin: host.origin });
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  socket.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('close', (code) => reject(new Error(`bridge closed before it opened (${code})`)));
  });
  let nextId = 0;
  const pending = new Map<number, (result: BridgeResult<unknown>) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: BridgeResult<unknown> };
    if (message.id === undefined) return;
    pending.get(message.id)?.(message.result!);
    pending.delete(message.id);
  });
  return {
    socket,
    closed,
    call(name, input = {}) {
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        socket.send(JSON.stringify({ id, call: name, input }));
      });
    },
    close: () => socket.close(),
  };
}
