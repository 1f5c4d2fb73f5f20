import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BROWSER_BRIDGE_PATH } from '../../common/browser-bridge-protocol.std.ts';
import { startBrowserHostProcess, type BrowserHostProcess } from '../support/browser-host-process.node.ts';
import { rawExchange } from '../support/raw-http.node.ts';

/**
 * The browser host as its own process, because "nothing a client sends ends the host" can only
 * be seen from outside: in this process a crash would take the test runner down instead.
 */
describe('browser host survives what any local page or process can send', () => {
  let host: BrowserHostProcess;
  let port: number;
  let exited = false;

  beforeAll(async () => {
    host = await startBrowserHostProcess();
    port = Number(new URL(host.origin).port);
    void host.exitCode.then(() => (exited = true));
  });
  afterAll(async () => {
    await host?.stop();
  });

  /** Still up and serving the page, after a moment in which a crash would have ended it. */
  async function expectServing() {
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(exited).toBe(false);
    expect((await fetch(host.url)).status).toBe(200);
  }

  const request = (target: string, extra = '') => `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${extra}\r\n`;
  const upgrade = (target: string) =>
    request(target, 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n');

  it('answers 400 to a request target that is no URL (`//[`), and keeps serving', async () => {
    await expect(rawExchange(port, request('//['))).resolves.toMatchObject({ status: 400 });
    await expectServing();
  });

  it('answers 400 to a bridge upgrade whose target is no URL, and keeps serving', async () => {
    await expect(rawExchange(port, upgrade('//['))).resolves.toMatchObject({ status: 400 });
    await expectServing();
  });

  it('refuses a token of as many characters but other bytes (é), on the page and the bridge, and keeps serving', async () => {
    const length = new URL(host.url).searchParams.get('token')!.length;
    const lookalike = encodeURIComponent('é'.repeat(length));
    await expect(rawExchange(port, request(`/?token=${lookalike}`))).resolves.toMatchObject({ status: 403 });
    const bridge = request(`${BROWSER_BRIDGE_PATH}?token=${lookalike}`, `Origin: ${host.origin}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n`);
    await expect(rawExchange(port, bridge)).resolves.toMatchObject({ status: 403 });
    await expectServing();
  });

  it('answers 400 to a request line Node cannot parse, and keeps serving', async () => {
    await expect(rawExchange(port, `GET /\x01 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`)).resolves.toMatchObject({ status: 400 });
    await expectServing();
  });

  it('closes a bridge connection that sends a frame over the size limit with 1009, and keeps serving', async () => {
    const token = new URL(host.url).searchParams.get('token')!;
    const socket = new WebSocket(`${host.origin.replace('http', 'ws')}${BROWSER_BRIDGE_PATH}?token=${token}`, { origin: host.origin });
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('open', resolve));
    const closed = new Promise<number>((resolve) => socket.once('close', resolve));
    socket.send('x'.repeat(1024 * 1024 + 1));
    await expect(closed).resolves.toBe(1009);
    await expectServing();
  });
});
