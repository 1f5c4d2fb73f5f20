import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { KioskServices } from '../kiosk-services.node.ts';
import { BridgeConnection } from '../bridge/dispatcher.std.ts';
import { contentSecurityPolicy } from '../security/content-security-policy.std.ts';
import { resolveRendererFile } from '../security/renderer-files.node.ts';
import { BrowserBridgeRequest, BROWSER_BRIDGE_PATH, BROWSER_BRIDGE_SCRIPT } from '../../preload/browser-bridge-protocol.std.ts';

export interface BrowserHostOptions {
  services: KioskServices;
  /** The built renderer (index.html, assets) and the built browser bridge script. */
  rendererDir: string;
  bridgeScript: string;
  port?: number;
}

export interface BrowserHost {
  /** The launch URL, token included: the only way in. */
  url: string;
  origin: string;
  close(): Promise<void>;
}

/**
 * Runs the kiosk in any Chromium: serves the built renderer on 127.0.0.1 and carries the bridge
 * contract over a WebSocket. Only loopback, only with the per-launch token, only from its own
 * origin. It holds no logic: every call goes to the same dispatcher Electron's IPC uses.
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const token = crypto.randomBytes(24).toString('base64url');
  const { services } = options;
  const logger = services.logger.child({ host: 'browser' });
  const { rendererDir } = options;
  let origin = '';

  const tokenMatches = (candidate: string | null) =>
    candidate !== null &&
    candidate.length === token.length &&
    crypto.timingSafeEqual(Buffer.from(candidate), Buffer.from(token));

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin);
    const headers = {
      'Content-Security-Policy': contentSecurityPolicy(services.platformOrigin()),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, headers).end();
      return;
    }
    if (url.pathname === '/' || url.pathname === '/index.html') {
      if (!tokenMatches(url.searchParams.get('token'))) {
        logger.warn('browser host: page requested without a valid token');
        response.writeHead(403, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
        response.end('This kiosk page opens only from its launch link.');
        return;
      }
      const html = fs
        .readFileSync(path.join(rendererDir, 'index.html'), 'utf8')
        .replace('<head>', `<head><script src="${BROWSER_BRIDGE_SCRIPT}"></script>`);
      response.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8' }).end(html);
      return;
    }
    const found =
      url.pathname === BROWSER_BRIDGE_SCRIPT
        ? { file: options.bridgeScript, contentType: 'text/javascript; charset=utf-8' }
        : resolveRendererFile(rendererDir, url.pathname);
    if (!found) {
      response.writeHead(404, headers).end();
      return;
    }
    response.writeHead(200, { ...headers, 'Content-Type': found.contentType });
    fs.createReadStream(found.file).pipe(response);
  });

  const sockets = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  let connections = 0;
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', origin);
    const allowed =
      url.pathname === BROWSER_BRIDGE_PATH &&
      request.headers.origin === origin &&
      tokenMatches(url.searchParams.get('token'));
    if (!allowed) {
      logger.warn('browser host: bridge connection refused', { origin: request.headers.origin ?? 'none' });
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => serveBridge(ws, services, new BridgeConnection(`ws-${++connections}`)));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  logger.info('browser host listening', { origin });

  return {
    url: `${origin}/?token=${token}`,
    origin,
    async close() {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One WebSocket is one bridge connection: calls in, answers and events out. */
function serveBridge(ws: WebSocket, services: KioskServices, connection: BridgeConnection) {
  const unsubscribe = services.events.subscribe((event, payload) => {
    ws.send(JSON.stringify({ event, payload }));
  });
  ws.on('close', unsubscribe);
  ws.on('message', async (data) => {
    let request: BrowserBridgeRequest;
    try {
      request = BrowserBridgeRequest.parse(JSON.parse(String(data)));
    } catch {
      services.logger.warn('browser host: dropped a malformed bridge message');
      return;
    }
    const result = await services.dispatch(request.call, request.input, connection);
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id: request.id, result }));
  });
}
