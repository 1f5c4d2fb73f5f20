import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessHost, type InProcessHost } from '../support/browser-host-in-process.node.ts';
import { rawExchange, type RawExchange } from '../support/raw-http.node.ts';
import { nastyString } from './bridge-inputs.node.ts';
import { recordFuzzInputs } from './fuzz-budget.node.ts';

const SEED = 1_205_004;
const INPUTS = 10_000;
const BATCH = 50;

interface RawRequest {
  method: string;
  target: string;
  version: string;
  host: 'own' | 'none' | string;
  upgrade: boolean;
  extraHeader: string | null;
}

const method = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'PATCH', 'CONNECT', 'PRI', 'get', '') },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

/** Targets that broke or could break URL parsing and path mapping, and arbitrary ones. */
const target = fc.oneof(
  fc.constantFrom('//[', '%', '%%', '/%zz', '/%00', '/%2e%2e/%2e%2e/etc/passwd', '/../package.json', '*', 'http://evil.example/', '//evil.example/x', '/launch/', '/launch/x', '/bridge', '/?token=x', '/index.html', '/\\..\\x'),
  fc.webPath(),
  fc.webUrl(),
  nastyString.map((text) => `/${text}`),
  nastyString,
  fc.integer({ min: 1_000, max: 100_000 }).map((length) => `/${'a'.repeat(length)}`),
);

const request: fc.Arbitrary<RawRequest> = fc.record({
  method,
  target,
  version: fc.oneof({ weight: 8, arbitrary: fc.constantFrom('HTTP/1.1', 'HTTP/1.0') }, { weight: 1, arbitrary: fc.constantFrom('HTTP/2.0', 'HTTP/0.9', 'HTTP/1.1 x', '') }, { weight: 1, arbitrary: fc.string({ maxLength: 10 }) }),
  host: fc.oneof({ weight: 5, arbitrary: fc.constant('own') }, fc.constantFrom('none', 'evil.example', 'localhost', '127.0.0.1', '127.0.0.1:1', '[::1]'), nastyString.filter((text) => text.length < 200)),
  upgrade: fc.boolean(),
  extraHeader: fc.option(nastyString.filter((text) => text.length < 2_000), { freq: 5 }),
});

function toBytes(sent: RawRequest, port: number): Buffer {
  const lines = [`${sent.method} ${sent.target} ${sent.version}`];
  if (sent.host !== 'none') lines.push(`Host: ${sent.host === 'own' ? `127.0.0.1:${port}` : sent.host}`);
  if (sent.upgrade) lines.push('Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==');
  if (sent.extraHeader !== null) lines.push(`X-Fuzz: ${sent.extraHeader}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`);
}

/** A refusal: a 4xx, or the connection closed without an answer (a request Node cannot even read). */
const isRefusal = ({ status }: RawExchange) => status === null || (status >= 400 && status < 500);

describe('HTTP fuzz', () => {
  let running: InProcessHost;
  let port: number;
  const uncaught: unknown[] = [];
  const record = (reason: unknown) => uncaught.push(reason);

  beforeAll(async () => {
    process.on('uncaughtException', record);
    process.on('unhandledRejection', record);
    running = await startInProcessHost();
    port = Number(new URL(running.host.origin).port);
  });
  afterAll(async () => {
    process.off('uncaughtException', record);
    process.off('unhandledRejection', record);
    await running?.close();
  });

  it(`refuses each of ${INPUTS} raw requests with a 4xx or a clean close, and serves the page afterwards (seed ${SEED})`, async () => {
    const inputs = fc.sample(request, { seed: SEED, numRuns: INPUTS });
    const accepted: Array<{ request: string; status: number | null }> = [];
    let ran = 0;
    try {
      for (let start = 0; start < inputs.length; start += BATCH) {
        await Promise.all(
          inputs.slice(start, start + BATCH).map(async (sent) => {
            const bytes = toBytes(sent, port);
            const answer = await rawExchange(port, bytes);
            ran++;
            if (!isRefusal(answer)) accepted.push({ request: bytes.toString('latin1').slice(0, 300), status: answer.status });
          }),
        );
      }
    } catch (error) {
      throw new Error(`HTTP fuzz failed (seed ${SEED}): ${String(error)}`);
    } finally {
      recordFuzzInputs('http', SEED, ran);
    }
    expect(accepted, `seed ${SEED}`).toEqual([]);
    expect(ran).toBe(INPUTS);
    expect(uncaught).toEqual([]);

    const page = await fetch(running.host.url);
    expect(page.status).toBe(200);
    await expect(page.text()).resolves.toContain('kiosk');
  }, 60_000);
});
