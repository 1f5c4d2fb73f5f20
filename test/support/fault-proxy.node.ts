import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A loopback HTTP proxy between a kiosk and its platform (the sandbox) that can spoil any request
 * the way a bad line or a sick platform would. Each request is asked of `decide`; `onStage` is
 * called (and awaited) as the request reaches each stage, so a test can kill the kiosk there.
 * Loopback only: it listens on 127.0.0.1 and forwards to the target it is given.
 */

export const FAULTS = ['drop_request', 'drop_answer', 'delay', 'status_500', 'status_503', 'html', 'cut'] as const;
/**
 * drop_request: never forwarded, never answered (the kiosk times out);
 * drop_answer: carried out by the platform, the answer never comes;
 * delay: carried out, answered only after `delayMs` (past the kiosk's timeout);
 * status_500: carried out, answered 500 (a gateway error over the platform's answer);
 * status_503: not forwarded, answered 503 (maintenance);
 * html: carried out, answered 200 with an HTML page (a captive portal, a proxy's error page);
 * cut: carried out, the connection broken off halfway through the answer.
 */
export type Fault = (typeof FAULTS)[number];

export interface ProxiedRequest {
  method: string;
  /** Path and query, as the kiosk sent them. */
  path: string;
  body: string;
}

/** sent: the whole request is at the proxy; landed: the platform has answered; answered: the kiosk has the answer. */
export type Stage = 'sent' | 'landed' | 'answered';

export interface ProxyRecord extends ProxiedRequest {
  fault: Fault | null;
  /** Whether the platform saw it. */
  forwarded: boolean;
}

export interface FaultProxy {
  /** The target's base URL with the proxy's origin. */
  readonly baseUrl: string;
  /** The fault for each request (none: undefined); replace it at will. */
  decide: (request: ProxiedRequest) => Fault | undefined;
  onStage: (stage: Stage, request: ProxiedRequest) => void | Promise<void>;
  /** Every request so far, in arrival order. */
  readonly log: ProxyRecord[];
  faultCount(): number;
  /** Resolves once no request is on its way to the platform (each one forwarded has its answer). */
  quiet(): Promise<void>;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string, { delayMs = 1_000 }: { delayMs?: number } = {}): Promise<FaultProxy> {
  const upstream = new URL(target);
  const log: ProxyRecord[] = [];
  let forwarding = 0;
  const onQuiet: Array<() => void> = [];

  async function handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const proxied: ProxiedRequest = { method: request.method ?? 'GET', path: request.url ?? '/', body: Buffer.concat(chunks).toString('utf8') };
    const fault = proxy.decide(proxied) ?? null;
    const record: ProxyRecord = { ...proxied, fault, forwarded: false };
    log.push(record);
    await proxy.onStage('sent', proxied);
    if (fault === 'drop_request') return; // held open: the kiosk hears nothing
    if (fault === 'status_503') return void response.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');

    record.forwarded = true;
    forwarding++;
    const answer = await forward(upstream, request, proxied).finally(() => {
      if (--forwarding > 0) return;
      for (const resolve of onQuiet.splice(0)) resolve();
    });
    await proxy.onStage('landed', proxied);
    switch (fault) {
      case 'drop_answer':
        return;
      case 'delay':
        await sleep(delayMs);
        break;
      case 'status_500':
        return void response.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
      case 'html':
        return void response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Gateway</title><p>Please wait…</p>');
      case 'cut':
        response.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': String(answer.body.length) });
        response.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)));
        return void response.socket?.destroy();
    }
    if (response.socket?.destroyed) return;
    response.writeHead(answer.status, answer.headers).end(answer.body);
    await new Promise((resolve) => response.on('finish', resolve));
    await proxy.onStage('answered', proxied);
  }

  const server = http.createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  const proxy: FaultProxy = {
    baseUrl: `http://127.0.0.1:${port}${upstream.pathname}`,
    decide: () => undefined,
    onStage: () => {},
    log,
    faultCount: () => log.filter((record) => record.fault !== null).length,
    quiet: () => (forwarding === 0 ? Promise.resolve() : new Promise((resolve) => onQuiet.push(resolve))),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function forward(upstream: URL, request: http.IncomingMessage, proxied: ProxiedRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      { host: upstream.hostname, port: upstream.port, path: proxied.path, method: proxied.method, headers: request.headers },
      (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => body.push(chunk));
        answer.on('end', () => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: Buffer.concat(body) }));
        answer.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(proxied.body);
  });
}
