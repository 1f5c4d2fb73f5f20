import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { handleApiRequest } from './api-request.std.ts';
import type { SandboxControl } from './handlers.std.ts';
import { sandboxNow } from './clock.std.ts';
import type { DurableStore } from './durable-store.node.ts';
import { ApiError, httpError } from './errors.std.ts';
import { sessionPage } from './session-page.std.ts';

/** Structured logging; the kiosk's main-process logger fits this shape. */
export interface SandboxLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export const BODY_LIMIT_BYTES = 1024 * 1024;

const API_PREFIX = '/api';
const SESSION_PAGE_PATH = '/portal-sessions';

interface ListenerOptions {
  store: DurableStore;
  /** `http://127.0.0.1:<port>`: the API lives under `<origin>/api`, session pages at the root. */
  origin: string;
  /** Where portal session urls point when the hosted pages have an origin of their own (as on the real platform). */
  portalOrigin?: string;
  logger: SandboxLogger;
}

/**
 * The HTTP face of the sandbox. Every answer waits until the state it reflects is on disk, so a
 * client never sees a change (its own or another's) that a crash could take back.
 */
export function createRequestListener({ store, origin, portalOrigin = origin, logger }: ListenerOptions): RequestListener {
  const control: SandboxControl = { rateLimit: { requests: 0, retryAfter: 0, paths: null } };

  async function respond(request: IncomingMessage, response: ServerResponse) {
    const body = await readBody(request);
    const url = URL.canParse(request.url ?? '', origin) ? new URL(request.url ?? '', origin) : null;
    if (url?.pathname === SESSION_PAGE_PATH && request.method === 'GET') return sendSessionPage(store, url, response);
    const limited = url && rateLimited(url);
    if (limited) return sendJson(response, 429, limited.body, { 'retry-after': limited.retryAfter });
    const answer = apiAnswer(request, url, body);
    await store.durable();
    sendJson(response, answer.status, answer.body);
  }

  /** A platform call refused by the rate limit the control route set; the control routes never are. */
  function rateLimited(url: URL) {
    const limit = control.rateLimit;
    if (limit.requests <= 0 || !url.pathname.startsWith(`${API_PREFIX}/`) || url.pathname.startsWith(`${API_PREFIX}/_sandbox/`)) return null;
    if (limit.paths && !limit.paths.includes(url.pathname.slice(API_PREFIX.length))) return null;
    limit.requests -= 1;
    return { body: httpError(429, 'Too many requests; try again later.').body, retryAfter: String(limit.retryAfter) };
  }

  function apiAnswer(request: IncomingMessage, url: URL | null, body: string | null) {
    try {
      if (body === null) throw httpError(413, `The request body is larger than ${BODY_LIMIT_BYTES} bytes.`);
      if (!url || (url.pathname !== API_PREFIX && !url.pathname.startsWith(`${API_PREFIX}/`))) {
        throw httpError(404, `No route for ${request.method} ${request.url}.`);
      }
      const answer = handleApiRequest(
        {
          method: request.method ?? 'GET',
          path: url.pathname.slice(API_PREFIX.length),
          query: url.searchParams,
          authorization: request.headers.authorization,
          body,
        },
        { state: store.state, now: sandboxNow(store.state), origin: portalOrigin, control },
      );
      // Handlers check before they change, so only a successful write has changed anything.
      if (request.method !== 'GET') store.changed();
      return answer;
    } catch (error) {
      if (error instanceof ApiError) return { status: error.status, body: error.body };
      throw error;
    }
  }

  return guarded(respond, logger);
}

/**
 * The hosted pages' own server (`portalOrigin`): session pages only, as the platform serves them
 * from a host of their own; everything else is a 404.
 */
export function createSessionPageListener({ store, origin, logger }: Omit<ListenerOptions, 'portalOrigin'>): RequestListener {
  return guarded(async (request, response) => {
    const url = URL.canParse(request.url ?? '', origin) ? new URL(request.url ?? '', origin) : null;
    if (url?.pathname === SESSION_PAGE_PATH && request.method === 'GET') return sendSessionPage(store, url, response);
    sendJson(response, 404, httpError(404, `No route for ${request.method} ${request.url}.`).body);
  }, logger);
}

/** A request that fails is logged and answered 500, never left hanging or thrown. */
function guarded(respond: (request: IncomingMessage, response: ServerResponse) => Promise<void>, logger: SandboxLogger): RequestListener {
  return (request, response) => {
    respond(request, response).catch((error: unknown) => {
      logger.error('Sandbox request failed', { method: request.method, url: request.url, error: String(error) });
      if (response.headersSent || response.destroyed) return;
      sendJson(response, 500, httpError(500, 'The sandbox failed to handle this request.').body);
    });
  };
}

async function sendSessionPage(store: DurableStore, url: URL, response: ServerResponse) {
  await store.durable();
  const page = sessionPage(store.state, url.searchParams.get('uuid'));
  send(response, page.status, page.html, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': page.contentSecurityPolicy,
    'referrer-policy': 'no-referrer',
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  send(response, status, JSON.stringify(body), { ...headers, 'content-type': 'application/json; charset=utf-8' });
}

function send(response: ServerResponse, status: number, text: string, headers: Record<string, string>) {
  response.writeHead(status, {
    ...headers,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/**
 * The body as text, or null when it is over the limit. An oversized body is still read to its
 * end (and dropped), so the client gets its 413 instead of a reset connection.
 */
async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= BODY_LIMIT_BYTES) chunks.push(chunk);
  }
  return size <= BODY_LIMIT_BYTES ? Buffer.concat(chunks).toString('utf8') : null;
}
