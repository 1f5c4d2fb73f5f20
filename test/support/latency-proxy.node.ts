import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

export { longestChain, type TimedCall } from '../bench/calls-in-a-row.std.ts';

/**
 * A loopback HTTP proxy that puts a store's line between a kiosk and its platform (the sandbox):
 * each request waits `legMs` before it is forwarded and its answer `legMs` before it goes back,
 * so every call costs 2 × legMs more (100 ms by default). Requests wait side by side, never in a
 * queue, and keep-alive connections are kept on both sides, so the figures show the kiosk's own
 * calls in a row, not the proxy's. It logs every request on its own clock (`proxyNow`).
 */

/** Epoch ms with sub-ms resolution: the clock of the proxy's log. */
export const proxyNow = () => performance.timeOrigin + performance.now();

export interface LoggedCall {
  method: string;
  /** Path and query, as the kiosk sent them. */
  path: string;
  /** When the request's head reached the proxy. */
  arrivedAt: number;
  /** When the proxy had sent the whole answer; null while it has not. */
  answeredAt: number | null;
}

export interface LatencyProxy {
  /** The target's base URL with the proxy's origin. */
  readonly baseUrl: string;
  /** Every request so far, in arrival order. */
  readonly log: readonly LoggedCall[];
  /** The requests that arrived within [from, to] (ms on `proxyNow`'s clock). */
  arrivedBetween(from: number, to: number): LoggedCall[];
  /** Resolves once every request so far has its answer (or its connection closed). */
  quiet(): Promise<void>;
  close(): Promise<void>;
}

/** Hop-by-hop headers: each side's connection is the proxy's own. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding']);

export async function startLatencyProxy(target: string, { legMs = 50 }: { legMs?: number } = {}): Promise<LatencyProxy> {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  const log: LoggedCall[] = [];
  let open = 0;
  const onQuiet: Array<() => void> = [];

  async function handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const call: LoggedCall = { method: request.method ?? 'GET', path: request.url ?? '/', arrivedAt: proxyNow(), answeredAt: null };
    log.push(call);
    open++;
    response.on('close', () => {
      if (--open === 0) for (const resolve of onQuiet.splice(0)) resolve();
    });
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    await sleep(legMs);
    const answer = await forward(upstream, agent, request, Buffer.concat(chunks));
    await sleep(legMs);
    response.on('finish', () => (call.answeredAt = proxyNow()));
    response.writeHead(answer.status, withoutHopByHop(answer.headers)).end(answer.body);
  }

  const server = http.createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  return {
    baseUrl: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/$/, '')}`,
    log,
    arrivedBetween: (from, to) => log.filter((call) => call.arrivedAt >= from && call.arrivedAt <= to),
    quiet: () => (open === 0 ? Promise.resolve() : new Promise((resolve) => onQuiet.push(resolve))),
    close: () => {
      server.closeAllConnections();
      agent.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function withoutHopByHop(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
}

function forward(upstream: URL, agent: http.Agent, request: http.IncomingMessage, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      { agent, host: upstream.hostname, port: upstream.port, path: request.url, method: request.method, headers: withoutHopByHop(request.headers) },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: Buffer.concat(chunks) }));
        answer.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
