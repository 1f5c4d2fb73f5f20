import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { KioskServices } from '../kiosk-services.node.ts';
import { BridgeConnection } from '../bridge/dispatcher.std.ts';
import { silentLogger, type Logger } from '../logging/logger.std.ts';
import { contentSecurityPolicy } from '../security/content-security-policy.std.ts';
import { resolveRendererFile } from '../security/renderer-files.node.ts';
import { BrowserBridgeRequest, BROWSER_BRIDGE_PATH, BROWSER_BRIDGE_SCRIPT, PAGE_RELOAD_EVENT } from '../../common/browser-bridge-protocol.std.ts';
import { jsonOrUndefined } from '../../common/json.std.ts';

export interface BrowserHostOptions {
  /**
   * Still starting, it may be: the host listens at once, so a browser can be opened beside the
   * start, and holds each request until the services run (a start that fails answers none).
   */
  services: KioskServices | Promise<KioskServices>;
  /** The built renderer (index.html, assets) and the built browser bridge script. */
  rendererDir: string;
  bridgeScript: string;
  port?: number;
  /** The page's token; by default a new one. A host restarting hands its own to its successor, so the open page works on. */
  token?: string;
}

export interface BrowserHost {
  /** The page's URL, session token included: for a person or a test to open, never for argv. */
  url: string;
  origin: string;
  /** A fresh one-time link for a browser's command line: see LAUNCH_PATH. */
  launchUrl(): string;
  /** Tells every open kiosk page to load itself afresh; how many were told. */
  reloadPages(): number;
  close(): Promise<void>;
}

/**
 * How the browser the host opens gets in without the session token on its command line (where
 * `ps` shows it to every user of the machine): its argv carries `/launch/<nonce>`, a link that
 * works once and only for LAUNCH_LINK_TTL_MS, and that answers with a redirect to the page URL
 * with the token. The token then only lives in the browser's memory, never in any argv.
 */
const LAUNCH_PATH = '/launch/';
const LAUNCH_LINK_TTL_MS = 60_000;
/** The bridge's largest call (a settings import) is 100 kB; a bigger frame is refused (1009). */
const MAX_FRAME_BYTES = 1024 * 1024;

/** How long a bridge socket that closed mid-visit has before that visit is ended (a reloading page asks sooner). */
const BRIDGE_GONE_GRACE_MS = 3_000;

/** WebSocket close codes for frames the bridge will not read. */
const CLOSE_UNSUPPORTED_DATA = 1003;
const CLOSE_INVALID_PAYLOAD = 1007;

/**
 * Runs the kiosk in any Chromium: serves the built renderer on 127.0.0.1 and carries the bridge
 * contract over a WebSocket. Only loopback, only with the per-launch token, only from its own
 * origin. It holds no logic: every call goes to the same dispatcher Electron's IPC uses. Nothing a
 * client sends can end it: a malformed request gets a 4xx, a malformed frame a close code.
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const site: Site = {
    ...options,
    token: options.token ?? crypto.randomBytes(24).toString('base64url'),
    logger: silentLogger,
    origin: '',
    hostHeader: '',
    launchLinks: new Map(),
  };
  const running = Promise.resolve(options.services).then((services) => {
    site.logger = services.logger.child({ host: 'browser' });
    return services;
  });
  // Whoever started the services hears of a failed start; the requests held just go unanswered.
  running.catch(() => {});
  const whenRunning = (serve: (services: KioskServices) => void, drop: () => void) => void running.then(serve, drop);

  const server = http.createServer((request, response) => {
    // A launch link counts from when the browser came with it, however long the services took to start.
    const arrivedAt = Date.now();
    whenRunning(
      (services) => {
        try {
          servePage(site, services, { request, arrivedAt }, response);
        } catch (error) {
          site.logger.error('browser host: request failed', { error: String(error) });
          if (response.headersSent) response.destroy();
          else response.writeHead(500).end();
        }
      },
      () => response.destroy(),
    );
  });
  // A request line or header Node cannot parse never reaches the handler: it is answered here.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    site.logger.warn('browser host: refused a malformed request', { code: String(error.code).slice(0, 40) });
    if (socket.writable && socket.bytesWritten === 0) socket.end(clientErrorResponse(error));
    else socket.destroy();
  });

  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  sockets.on('error', (error) => site.logger.error('browser host: bridge server error', { error: String(error) }));
  let connections = 0;
  server.on('upgrade', (request: http.IncomingMessage, socket: Socket, head: Buffer) => {
    // A client that resets mid-handshake (or while the services start) must not take the host down with it.
    socket.on('error', () => socket.destroy());
    whenRunning(
      (services) => {
        try {
          if (!acceptsBridge(site, request, socket)) return;
          sockets.handleUpgrade(request, socket, head, (ws) => serveBridge(ws, services, site.logger, new BridgeConnection(`ws-${++connections}`)));
        } catch (error) {
          // Like a request that fails: logged, the connection dropped, the host kept.
          site.logger.error('browser host: bridge upgrade failed', { error: String(error) });
          socket.destroy();
        }
      },
      () => socket.destroy(),
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  server.on('error', (error) => site.logger.error('browser host: server error', { error: String(error) }));
  const { port } = server.address() as AddressInfo;
  site.hostHeader = `127.0.0.1:${port}`;
  site.origin = `http://${site.hostHeader}`;
  whenRunning(() => site.logger.info('browser host listening', { origin: site.origin }), () => {});

  return {
    url: `${site.origin}/?token=${site.token}`,
    origin: site.origin,
    launchUrl: () => newLaunchLink(site),
    reloadPages() {
      const open = [...sockets.clients].filter((client) => client.readyState === client.OPEN);
      for (const client of open) client.send(JSON.stringify({ event: PAGE_RELOAD_EVENT, payload: null }));
      site.logger.info('browser host: pages told to reload', { pages: open.length });
      return open.length;
    },
    async close() {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The host's page and bridge as requests see them; origin and hostHeader are known once listening. */
interface Site extends Omit<BrowserHostOptions, 'services'> {
  token: string;
  logger: Logger;
  origin: string;
  hostHeader: string;
  /** Unused launch-link nonces and when they expire. */
  launchLinks: Map<string, number>;
}

/** Compared as bytes: a candidate of as many characters but other bytes (`é`) must not reach timingSafeEqual. */
function tokenMatches({ token }: Site, candidate: string | null): boolean {
  if (candidate === null) return false;
  const given = Buffer.from(candidate);
  const expected = Buffer.from(token);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/**
 * Only `127.0.0.1:<port>`, the one name the page is served under: a page reaching us under any
 * other name (a DNS-rebound one) is not ours. `localhost` is refused too: its origin would fail
 * the bridge's Origin check anyway, so it could only ever show a page that cannot work.
 */
function isOwnHost(site: Site, request: http.IncomingMessage): boolean {
  return request.headers.host === site.hostHeader;
}

/** The request target as a URL of this origin, or null (`//[`, `%`, another host). */
function parseTarget({ origin }: Site, request: http.IncomingMessage): URL | null {
  try {
    const url = new URL(request.url ?? '/', origin);
    return url.origin === origin ? url : null;
  } catch {
    return null;
  }
}

function newLaunchLink(site: Site): string {
  for (const [nonce, expiresAt] of site.launchLinks) if (expiresAt <= Date.now()) site.launchLinks.delete(nonce);
  const nonce = crypto.randomBytes(24).toString('base64url');
  site.launchLinks.set(nonce, Date.now() + LAUNCH_LINK_TTL_MS);
  return `${site.origin}${LAUNCH_PATH}${nonce}`;
}

function useLaunchLink({ launchLinks }: Site, nonce: string, usedAt: number): boolean {
  const expiresAt = launchLinks.get(nonce);
  launchLinks.delete(nonce);
  return expiresAt !== undefined && expiresAt > usedAt;
}

/** The launch link, the page (with its token) and the renderer's files; anything else is refused. */
function servePage(site: Site, services: KioskServices, { request, arrivedAt }: { request: http.IncomingMessage; arrivedAt: number }, response: http.ServerResponse) {
  const { logger, rendererDir } = site;
  const headers = {
    'Content-Security-Policy': contentSecurityPolicy(services.platformOrigin(), services.frameOrigins.list()),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  };
  const refuse = (status: number, text?: string) => {
    if (!text) return void response.writeHead(status, headers).end();
    response.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end(text);
  };
  if (!isOwnHost(site, request)) {
    logRefusedHost(logger, request);
    return refuse(421, 'This kiosk page answers only at 127.0.0.1.');
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405);
  const url = parseTarget(site, request);
  if (!url) return refuse(400);
  if (url.pathname.startsWith(LAUNCH_PATH) && request.method === 'GET') {
    if (!useLaunchLink(site, url.pathname.slice(LAUNCH_PATH.length), arrivedAt)) {
      logger.warn('browser host: launch link used again, expired or unknown');
      return refuse(403, 'This launch link has been used or has expired.');
    }
    response.writeHead(303, { ...headers, Location: `/?token=${site.token}` }).end();
    return;
  }
  if (url.pathname === '/' || url.pathname === '/index.html') {
    if (!tokenMatches(site, url.searchParams.get('token'))) {
      logger.warn('browser host: page requested without a valid token');
      return refuse(403, 'This kiosk page opens only from its launch link.');
    }
    const html = fs
      .readFileSync(path.join(rendererDir, 'index.html'), 'utf8')
      .replace('<head>', `<head><script src="${BROWSER_BRIDGE_SCRIPT}"></script>`);
    response.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8' }).end(html);
    return;
  }
  const found =
    url.pathname === BROWSER_BRIDGE_SCRIPT
      ? { file: site.bridgeScript, contentType: 'text/javascript; charset=utf-8' }
      : resolveRendererFile(rendererDir, url.pathname);
  if (!found) return refuse(404);
  response.writeHead(200, { ...headers, 'Content-Type': found.contentType });
  fs.createReadStream(found.file)
    .once('error', (error) => {
      logger.error('browser host: could not read a renderer file', { error: String(error) });
      response.destroy();
    })
    .pipe(response);
}

/** Whether a WebSocket upgrade may become a bridge connection; a refused one is answered and ended. */
function acceptsBridge(site: Site, request: http.IncomingMessage, socket: Socket): boolean {
  const refuse = (status: string) => void socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
  if (!isOwnHost(site, request)) {
    logRefusedHost(site.logger, request);
    refuse('421 Misdirected Request');
    return false;
  }
  const url = parseTarget(site, request);
  if (!url) {
    refuse('400 Bad Request');
    return false;
  }
  const allowed =
    url.pathname === BROWSER_BRIDGE_PATH && request.headers.origin === site.origin && tokenMatches(site, url.searchParams.get('token'));
  if (!allowed) {
    site.logger.warn('browser host: bridge connection refused', { origin: (request.headers.origin ?? 'none').slice(0, 100) });
    refuse('403 Forbidden');
  }
  return allowed;
}

/** What Node itself would answer to a request it could not parse. */
function clientErrorResponse(error: NodeJS.ErrnoException): string {
  const status =
    error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large'
    : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout'
    : '400 Bad Request';
  return `HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`;
}

/** The Host header is the client's text: logged cut short, as JSON escapes it. */
function logRefusedHost(logger: Logger, request: http.IncomingMessage) {
  logger.warn('browser host: refused a request for another host', { host: (request.headers.host ?? 'none').slice(0, 100) });
}

/** One WebSocket is one bridge connection: calls in, answers and events out. */
function serveBridge(ws: WebSocket, services: KioskServices, logger: Logger, connection: BridgeConnection) {
  const unsubscribe = services.events.subscribe((event, payload) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ event, payload }));
  });
  ws.on('close', () => {
    unsubscribe();
    // A closed tab shows nothing: it must not keep the kiosk busy (updates, restarts wait for idle).
    // One that showed a visit (crashed, reloaded, closed) leaves locks only main can now settle.
    services.interruptions.screenGone(connection, { graceMs: BRIDGE_GONE_GRACE_MS });
  });
  // Oversized frames, bad opcodes, resets: ws closes the socket with its code; this keeps the process up.
  ws.on('error', (error: Error & { code?: string }) => logger.warn('browser host: bridge connection failed', { code: String(error.code ?? error.name).slice(0, 60) }));
  ws.on('message', (data: RawData, isBinary: boolean) => {
    if (isBinary) {
      logger.warn('browser host: refused a binary bridge message');
      return ws.close(CLOSE_UNSUPPORTED_DATA, 'the bridge speaks JSON text');
    }
    const request = BrowserBridgeRequest.safeParse(jsonOrUndefined(String(data)));
    if (!request.success) {
      logger.warn('browser host: refused a malformed bridge message');
      return ws.close(CLOSE_INVALID_PAYLOAD, 'malformed bridge message');
    }
    const { id, call, input } = request.data;
    services
      .dispatch(call, input, connection)
      .then((result) => ws.readyState === ws.OPEN && ws.send(JSON.stringify({ id, result })))
      .catch((error: unknown) => logger.error('browser host: bridge call failed', { call, error: String(error) }));
  });
}
