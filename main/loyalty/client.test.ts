import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { sampleVoucher, sampleVoucherWithRedemptions, samplePortalSession } from '../../api/wire-samples.std.ts';
import { recordingLogger, type LogLine } from '../../test/support/factories.std.ts';
import { createLoyaltyClient, type LoyaltyClientOptions } from './client.node.ts';
import { failure } from './loyalty-error.test-support.ts';
import { outsideTimeBudget, withTimeBudget } from './time-budget.node.ts';
import type { LoyaltyCredentials } from './request.std.ts';

const credentials = {
  apiKey: 'api-key-3f9a1c77d2e84b6f',
  accessToken: 'access-token-8d21b0e4c6a95f13',
  personalAccessToken: 'personal-token-5e7c2a90b1d3f846',
} satisfies LoyaltyCredentials;
const secrets = Object.values(credentials);

const voucherUuid = sampleVoucher.uuid;
const shopUuid = '11111111-1111-1111-1111-111111111111';

interface ReceivedRequest {
  method: string;
  /** The request target exactly as sent: path and query, still encoded. */
  target: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
}

type Script = (request: ReceivedRequest, response: ServerResponse) => void;

const servers: Server[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    ),
  );
});

/** A real HTTP server on 127.0.0.1 that answers as the script says and records every request. */
async function scriptedServer(script: Script) {
  const requests: ReceivedRequest[] = [];
  const server = createServer((incoming, response) => {
    let body = '';
    incoming.setEncoding('utf8');
    incoming.on('data', (chunk: string) => (body += chunk));
    incoming.on('end', () => {
      const target = incoming.url ?? '/';
      const request = { method: incoming.method ?? '', target, url: new URL(target, 'http://x'), headers: incoming.headers, body };
      requests.push(request);
      script(request, response);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/api`, requests };
}

function reply(status: number, body: unknown): Script {
  return (_request, response) => {
    response.writeHead(status, { 'Content-Type': 'application/json' });
    response.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

/** Answers with each script in turn, repeating the last. */
function inTurn(...scripts: Script[]): Script {
  let next = 0;
  return (request, response) => scripts[Math.min(next++, scripts.length - 1)]!(request, response);
}

const found = reply(200, { data: sampleVoucherWithRedemptions, meta: [] });

/** A platform that takes every request and never answers: each ends when its signal aborts. */
function silentPlatform() {
  const requests: string[] = [];
  const fetch = (url: string | URL | Request, init?: RequestInit) => {
    requests.push(String(url));
    return new Promise<Response>((_resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
    });
  };
  return { requests, fetch: fetch as typeof globalThis.fetch };
}

function clientFor(baseUrl: string, options: Partial<LoyaltyClientOptions> = {}) {
  return createLoyaltyClient({ baseUrl, credentials: async () => credentials, retryDelayMs: 5, ...options });
}

describe('requests', () => {
  it('finds a voucher with GET and the code in the query, and returns the parsed answer', async () => {
    const server = await scriptedServer(found);
    const answer = await clientFor(server.baseUrl).findVoucher({ code: 'KIOSK 7Q2W&9X4Z' });

    expect(answer.data.code).toBe(sampleVoucher.code);
    expect(answer.data.attributes).toEqual({});
    const [request] = server.requests;
    expect(request?.method).toBe('GET');
    expect(request?.url.pathname).toBe('/api/vouchers/find');
    expect(request?.url.searchParams.get('code')).toBe('KIOSK 7Q2W&9X4Z');
    expect(request?.headers.accept).toBe('application/json');
    expect(request?.headers['content-type']).toBeUndefined();
    expect(request?.body).toBe('');
  });

  it('puts list filters in the query and leaves out those not given', async () => {
    const server = await scriptedServer(reply(200, { data: [], meta: { current_page: 2, from: null, last_page: 1, per_page: 50, to: null, total: 0 } }));
    await clientFor(server.baseUrl).listVouchers({ status: 'LOCKED', limit: 50, page: 2, contact_uuid: undefined });

    const query = server.requests[0]?.url.searchParams;
    expect(Object.fromEntries(query ?? [])).toEqual({ status: 'LOCKED', limit: '50', page: '2' });
  });

  it('sends a redeem as a JSON body, nothing in the query', async () => {
    const redeemed = {
      ...sampleVoucherWithRedemptions,
      status: 'REDEEMED',
      voucher_redemption: { uuid: 'r1', created_at: '2025-01-02T10:00:00+00:00' },
    };
    const server = await scriptedServer(reply(200, { data: redeemed, meta: [] }));
    const answer = await clientFor(server.baseUrl).redeemVoucher({ code: 'KIOSK-1', shop_uuid: shopUuid, release_key: 'rk' });

    expect(answer.data.voucher_redemption.uuid).toBe('r1');
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.target).toBe('/api/vouchers/redeem');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({ code: 'KIOSK-1', shop_uuid: shopUuid, release_key: 'rk' });
  });

  it('substitutes and encodes path parameters and keeps them out of the body', async () => {
    const server = await scriptedServer(reply(200, { data: sampleVoucherWithRedemptions, meta: [] }));
    await clientFor(server.baseUrl).updateVoucher({ voucher_uuid: 'a/b c?d', status: 'DEACTIVATED' });

    const [request] = server.requests;
    expect(request?.method).toBe('PUT');
    expect(request?.target).toBe('/api/vouchers/a%2Fb%20c%3Fd');
    expect(JSON.parse(request?.body ?? '')).toEqual({ status: 'DEACTIVATED' });
  });

  it.each([
    ['empty', ''],
    ['not valid text (a lone surrogate)', '\uD800'],
  ])('refuses a path parameter that is %s before sending anything', async (_name, voucher_uuid) => {
    const server = await scriptedServer(found);
    const error = await failure(clientFor(server.baseUrl).lockVoucher({ voucher_uuid }));

    expect(error).toMatchObject({ kind: 'validation', operation: 'lockVoucher' });
    expect(server.requests).toHaveLength(0);
  });

  it.each(['not a url', 'http://', '//127.0.0.1/api', 'http://[::1/api'])(
    'answers the malformed base URL %j with network, for a GET and a POST',
    async (baseUrl) => {
      const client = clientFor(baseUrl, { retries: 0 });
      expect(await failure(client.findVoucher({ code: 'C' }))).toMatchObject({ kind: 'network', operation: 'findVoucher' });
      expect(await failure(client.redeemVoucher({ code: 'C', shop_uuid: shopUuid }))).toMatchObject({ kind: 'network' });
    },
  );

  it('posts to the versioned validate path with the shop and contact in the body', async () => {
    const server = await scriptedServer(reply(200, { data: { valid: true, reason: null, voucher: sampleVoucher }, meta: [] }));
    const answer = await clientFor(server.baseUrl).checkVoucherValidity({ voucher_uuid: voucherUuid, shop_uuid: shopUuid });

    expect(answer.data.valid).toBe(true);
    expect(server.requests[0]?.target).toBe(`/api/v3/oauth/clients/vouchers/${voucherUuid}/validate`);
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({ shop_uuid: shopUuid });
  });

  it('locks with a POST without a body', async () => {
    const lock = {
      voucher: { uuid: voucherUuid, status: 'LOCKED' },
      lock: { release_key: 'rk', locked_at: '2025-01-01T10:00:00+00:00', unlocked_at: null, system_release_at: '2025-01-01T11:00:00+00:00' },
    };
    const server = await scriptedServer(reply(200, { data: lock, meta: [] }));
    const answer = await clientFor(server.baseUrl).lockVoucher({ voucher_uuid: voucherUuid });

    expect(answer.data.lock.release_key).toBe('rk');
    expect(server.requests[0]?.target).toBe(`/api/vouchers/${voucherUuid}/lock`);
    expect(server.requests[0]?.body).toBe('');
    expect(server.requests[0]?.headers['content-type']).toBeUndefined();
  });

  it('types each call from the operations table', () => {
    type Client = ReturnType<typeof createLoyaltyClient>;
    expectTypeOf<Parameters<Client['findVoucher']>[0]>().toEqualTypeOf<{ code: string }>();
    expectTypeOf<Awaited<ReturnType<Client['getCreditBalance']>>['data']['balance']>().toEqualTypeOf<number>();
    expectTypeOf<Parameters<Client['createPortalSession']>[0]['camera_service']>().toEqualTypeOf<1 | 2 | 3 | undefined>();
    expectTypeOf<Parameters<Client['listRewardAttributes']>>().toEqualTypeOf<[]>();
    expectTypeOf<Parameters<Client['listVouchers']>[0]>().toEqualTypeOf<
      { promotion_uuid?: string; contact_uuid?: string; status?: 'ACTIVE' | 'REDEEMED' | 'EXPIRED' | 'DEACTIVATED' | 'INACTIVE' | 'LOCKED'; limit?: number; page?: number } | undefined
    >();
  });
});

describe('credentials', () => {
  const created = reply(200, { data: { ...samplePortalSession, events: [] }, meta: [] });

  it.each([
    ['a portal session, with an access token', { ...credentials }, 'createPortalSession', credentials.accessToken],
    ['a portal session, without an access token', { apiKey: credentials.apiKey }, 'createPortalSession', credentials.apiKey],
    ['a voucher', { ...credentials }, 'findVoucher', credentials.apiKey],
    ['a validity check', { ...credentials }, 'checkVoucherValidity', credentials.personalAccessToken],
  ] as const)('authorizes %s with the right bearer', async (_name, available, operation, expected) => {
    const validity = reply(200, { data: { valid: true, reason: null, voucher: sampleVoucher }, meta: [] });
    const script = { createPortalSession: created, findVoucher: found, checkVoucherValidity: validity }[operation];
    const server = await scriptedServer(script);
    const client = clientFor(server.baseUrl, { credentials: async () => available });
    const input = { shop_uuid: shopUuid, code: 'C', voucher_uuid: voucherUuid };
    await (client[operation] as (input: object) => Promise<unknown>)(input);

    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${expected}`);
  });

  it('fails with auth before sending anything when the credential is missing', async () => {
    const server = await scriptedServer(found);
    const client = clientFor(server.baseUrl, { credentials: async () => ({ apiKey: credentials.apiKey }) });
    const error = await failure(client.checkVoucherValidity({ voucher_uuid: voucherUuid, shop_uuid: shopUuid }));

    expect(error.kind).toBe('auth');
    expect(server.requests).toHaveLength(0);
  });

  it('fails with auth when the keychain cannot be read', async () => {
    const server = await scriptedServer(found);
    const client = clientFor(server.baseUrl, { credentials: () => Promise.reject(new Error('keychain locked')) });

    expect((await failure(client.findVoucher({ code: 'C' }))).kind).toBe('auth');
    expect(server.requests).toHaveLength(0);
  });

  it('reads the credentials anew for every call', async () => {
    const server = await scriptedServer(found);
    let apiKey = 'first-key-0000000000';
    const client = clientFor(server.baseUrl, { credentials: async () => ({ apiKey }) });
    await client.findVoucher({ code: 'C' });
    apiKey = 'second-key-000000000';
    await client.findVoucher({ code: 'C' });

    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      'Bearer first-key-0000000000',
      'Bearer second-key-000000000',
    ]);
  });
});

describe('failures', () => {
  it('answers garbage JSON with bad_response', async () => {
    const server = await scriptedServer(reply(200, '{"data": {"uuid": '));
    const error = await failure(clientFor(server.baseUrl).findVoucher({ code: 'C' }));

    expect(error).toMatchObject({ kind: 'bad_response', status: 200 });
  });

  it('answers a wrong shape with bad_response naming where it differs', async () => {
    const server = await scriptedServer(reply(200, { data: { ...sampleVoucherWithRedemptions, status: 'USED' }, meta: [] }));
    const error = await failure(clientFor(server.baseUrl).findVoucher({ code: 'C' }));

    expect(error.kind).toBe('bad_response');
    expect(error.message).toContain('data.status');
  });

  it('gives every attempt 10 s by default', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const platform = silentPlatform();
    const client = createLoyaltyClient({ baseUrl: 'http://platform.invalid/api', credentials: async () => credentials, fetch: platform.fetch });
    const started = performance.now();
    const call = failure(client.redeemVoucher({ code: 'C', shop_uuid: shopUuid }));
    await vi.runAllTimersAsync();
    const error = await call;

    expect(performance.now() - started).toBe(10_000);
    expect(error).toMatchObject({ kind: 'timeout', message: 'No answer within 10000 ms' });
  });

  it('gives up on a server that never answers with timeout', async () => {
    const server = await scriptedServer(() => {});
    const started = Date.now();
    const error = await failure(
      clientFor(server.baseUrl, { timeoutMs: 150 }).redeemVoucher({ code: 'C', shop_uuid: shopUuid }),
    );

    expect(error.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('times out on an answer that starts but never ends', async () => {
    const server = await scriptedServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write('{"data": ');
    });
    const error = await failure(clientFor(server.baseUrl, { timeoutMs: 150, retries: 0 }).findVoucher({ code: 'C' }));

    expect(error.kind).toBe('timeout');
  });

  it('reports a refused connection as network', async () => {
    const server = await scriptedServer(found);
    const closed = servers.pop()!;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(clientFor(server.baseUrl, { retries: 0 }).findVoucher({ code: 'C' }));

    expect(error.kind).toBe('network');
  });

  it.each([
    ['503', 503, { message: 'Down for maintenance', code: 503, status_code: 503 }, 'maintenance', 503],
    ['401', 401, { message: 'Unauthenticated.', code: 401, status_code: 401 }, 'auth', 401],
    ['403 without a platform body', 403, '<html>Forbidden</html>', 'auth', undefined],
    ['404 with 80004', 404, { message: 'Voucher not found.', code: 80004, status_code: 404 }, 'not_found', 80004],
    ['400 with 80005 (the code wins)', 400, { message: 'Already redeemed.', code: 80005, status_code: 400 }, 'conflict', 80005],
    ['400 with 60003 (the code wins)', 400, { message: 'Unknown card.', code: 60003, status_code: 400 }, 'not_found', 60003],
    ['409 with an unpublished code', 409, { message: 'Busy.', code: 4242, status_code: 409 }, 'conflict', 4242],
    ['422 without a platform body', 422, '', 'validation', undefined],
    ['413', 413, { message: 'Payload too large', code: 413, status_code: 413 }, 'validation', 413],
    ['429 without a platform body', 429, 'Too Many Requests', 'rate_limited', undefined],
    ['404 with 60003 and Laravel\'s empty errors []', 404, { message: 'Unknown card.', code: 60003, status_code: 404, errors: [] }, 'not_found', 60003],
    ['500', 500, { message: 'Server error', code: 500, status_code: 500 }, 'server', 500],
    ['418', 418, { message: 'Teapot', code: 418, status_code: 418 }, 'bad_response', 418],
  ])('classifies %s', async (_name, status, body, kind, code) => {
    const server = await scriptedServer(reply(status, body));
    const error = await failure(clientFor(server.baseUrl, { retries: 0 }).redeemVoucher({ code: 'C', shop_uuid: shopUuid }));

    expect(error).toMatchObject({ kind, status, code });
  });

  it('tells whoever keeps the credentials when the platform refuses them, and only then', async () => {
    let refusals = 0;
    const server = await scriptedServer(inTurn(reply(500, { message: 'Server error', code: 500, status_code: 500 }), reply(401, { message: 'Unauthenticated.', code: 401, status_code: 401 }), found));
    const client = clientFor(server.baseUrl, { retries: 0, onCredentialsRefused: () => refusals++ });
    await failure(client.findVoucher({ code: 'C' }));
    expect(refusals).toBe(0);
    await failure(client.findVoucher({ code: 'C' }));
    expect(refusals).toBe(1);
    await client.findVoucher({ code: 'C' });
    expect(refusals).toBe(1);
  });

  it('passes on field messages of a validation failure', async () => {
    const errors = { shop_uuid: ['The shop uuid field is required.'], code: ['The code must be a string.'] };
    const server = await scriptedServer(reply(400, { message: 'Invalid input.', code: 1003, status_code: 400, errors }));
    const error = await failure(clientFor(server.baseUrl).redeemVoucher({ code: 'C', shop_uuid: shopUuid }));

    expect(error.toJSON()).toEqual({
      kind: 'validation',
      operation: 'redeemVoucher',
      code: 1003,
      status: 400,
      message: 'Invalid input.',
      fieldErrors: errors,
    });
  });
});

describe('retries', () => {
  const serverError = reply(500, { message: 'Server error', code: 500, status_code: 500 });

  it('retries a GET after a 500 and returns the later answer', async () => {
    const server = await scriptedServer(inTurn(serverError, found));
    const answer = await clientFor(server.baseUrl).findVoucher({ code: 'C' });

    expect(answer.data.uuid).toBe(voucherUuid);
    expect(server.requests).toHaveLength(2);
  });

  it('retries a GET after a dropped connection', async () => {
    const server = await scriptedServer(inTurn((_request, response) => response.socket?.destroy(), found));
    await clientFor(server.baseUrl).findVoucher({ code: 'C' });

    expect(server.requests).toHaveLength(2);
  });

  it('waits longer before each further GET retry: 250 ms, then 500 ms, by default', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0); // no jitter
    const arrivals: number[] = [];
    const server = await scriptedServer((request, response) => {
      arrivals.push(performance.now());
      serverError(request, response);
    });
    const client = createLoyaltyClient({ baseUrl: server.baseUrl, credentials: async () => credentials });
    expect((await failure(client.findVoucher({ code: 'C' }))).kind).toBe('server');

    const gaps = arrivals.slice(1).map((at, index) => at - arrivals[index]!);
    expect(gaps).toHaveLength(2);
    // A timer may fire a millisecond early; the upper bounds only keep the doubling from being more.
    expect(gaps[0]).toBeGreaterThanOrEqual(249);
    expect(gaps[0]).toBeLessThan(500);
    expect(gaps[1]).toBeGreaterThanOrEqual(499);
    expect(gaps[1]).toBeLessThan(1000);
  });

  it('gives up on a GET after the configured retries', async () => {
    const server = await scriptedServer(serverError);
    const error = await failure(clientFor(server.baseUrl, { retries: 2 }).findVoucher({ code: 'C' }));

    expect(error.kind).toBe('server');
    expect(server.requests).toHaveLength(3);
  });

  it.each([
    ['a 404', reply(404, { message: 'Voucher not found.', code: 80004, status_code: 404 })],
    ['maintenance', reply(503, { message: 'Maintenance', code: 503, status_code: 503 })],
    ['a bad answer', reply(200, 'not json')],
  ])('does not retry a GET after %s', async (_name, script) => {
    const server = await scriptedServer(script);
    await failure(clientFor(server.baseUrl).findVoucher({ code: 'C' }));

    expect(server.requests).toHaveLength(1);
  });

  it('never sends a POST twice, whatever happens', async () => {
    const server = await scriptedServer(inTurn(serverError, found));
    const error = await failure(clientFor(server.baseUrl).redeemVoucher({ code: 'C', shop_uuid: shopUuid }));

    expect(error.kind).toBe('server');
    expect(server.requests).toHaveLength(1);
  });

  it('never sends a POST twice after a dropped connection', async () => {
    const server = await scriptedServer((_request, response) => response.socket?.destroy());
    const error = await failure(clientFor(server.baseUrl).redeemVoucher({ code: 'C', shop_uuid: shopUuid }));

    expect(error.kind).toBe('network');
    expect(server.requests).toHaveLength(1);
  });
});

describe('secrets and personal data', () => {
  it('keeps credentials out of errors even when the platform echoes them', async () => {
    const echo = `Token ${credentials.apiKey} is not valid (also tried ${credentials.accessToken})`;
    const server = await scriptedServer(
      reply(401, { message: echo, code: 401, status_code: 401, errors: { authorization: [echo] } }),
    );
    const error = await failure(clientFor(server.baseUrl).findVoucher({ code: 'C' }));

    expect(error.kind).toBe('auth');
    const texts = [error.message, JSON.stringify(error), String(error.stack)];
    for (const secret of secrets) for (const text of texts) expect(text).not.toContain(secret);
    expect(error.message).toContain('[redacted]');
  });

  it('logs every call at debug with operation, status and duration, never a secret, code or e-mail', async () => {
    const lines: LogLine[] = [];
    const echo = `bad token ${credentials.apiKey} for jane.doe@example.com`;
    const server = await scriptedServer((request, response) => {
      if (request.url.pathname.endsWith('/find-one-by')) reply(401, { message: echo, code: 401, status_code: 401 })(request, response);
      else found(request, response);
    });
    const client = clientFor(server.baseUrl, { logger: recordingLogger(lines).logger });
    await client.findVoucher({ code: 'SECRETCODE-98765' });
    await failure(client.findContactByEmail({ email: 'jane.doe@example.com' }));

    expect(lines).toHaveLength(2);
    expect(lines.every((line) => line.level === 'debug')).toBe(true);
    expect(lines[0]?.fields).toMatchObject({ operation: 'findVoucher', status: 200, input: { code: '…8765' } });
    expect(lines[0]?.fields.durationMs).toEqual(expect.any(Number));
    expect(lines[1]?.fields).toMatchObject({ operation: 'findContactByEmail', status: 401, kind: 'auth' });
    const logged = JSON.stringify(lines);
    for (const secret of secrets) expect(logged).not.toContain(secret);
    expect(logged).not.toContain('SECRETCODE-98765');
    expect(logged).not.toContain('jane.doe@example.com');
  });
});

describe('a shopper action\'s time budget', () => {
  // On a fake clock, against a platform that never answers: each attempt ends at its own timeout
  // or the action's deadline, whichever comes first, however busy the machine is.
  async function timeTaken(action: Promise<unknown>): Promise<{ error: Awaited<ReturnType<typeof failure>>; elapsed: number }> {
    const started = performance.now();
    const outcome = failure(action);
    await vi.runAllTimersAsync();
    return { error: await outcome, elapsed: performance.now() - started };
  }

  it('bounds all attempts and retries of a call together, not each attempt', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const platform = silentPlatform();
    const client = clientFor('http://platform.invalid/api', { timeoutMs: 250, retries: 2, retryDelayMs: 10, fetch: platform.fetch });
    // Unbudgeted: three attempts of 250 ms each, 10 and 20 ms apart (+ up to 20% jitter).
    const unbudgeted = await timeTaken(client.findVoucher({ code: 'C' }));
    expect(unbudgeted.error.kind).toBe('timeout');
    expect(unbudgeted.elapsed).toBeGreaterThanOrEqual(780);
    expect(unbudgeted.elapsed).toBeLessThanOrEqual(786);
    expect(platform.requests).toHaveLength(3);

    // 400 ms: the first attempt takes 250 ms, the second only what is left; no time for a third.
    const budgeted = await timeTaken(withTimeBudget(400, () => client.findVoucher({ code: 'C' })));
    expect(budgeted.error.kind).toBe('timeout');
    expect(budgeted.elapsed).toBe(400);
    expect(platform.requests).toHaveLength(5);
  });

  it('is shared by every call of the action, and an action out of time sends nothing more', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const platform = silentPlatform();
    const client = clientFor('http://platform.invalid/api', { timeoutMs: 250, retries: 0, fetch: platform.fetch });
    const started = performance.now();
    const action = withTimeBudget(350, async () => {
      expect((await failure(client.findVoucher({ code: 'C' }))).kind).toBe('timeout');
      expect((await failure(client.redeemVoucher({ code: 'C', shop_uuid: shopUuid }))).kind).toBe('timeout');
      expect((await failure(client.findVoucher({ code: 'C' }))).kind).toBe('timeout');
    });
    await vi.runAllTimersAsync();
    await action;
    const elapsed = performance.now() - started;
    // 250 ms for the first call, the 100 ms left for the second, nothing for the third.
    expect(elapsed).toBe(350);
    expect(platform.requests).toHaveLength(2);
  });

  it('does not reach work begun outside it (a background release)', async () => {
    // A slow platform: the answer comes after 300 ms, past the 100 ms budget.
    const slow: Script = (request, response) => void setTimeout(() => found(request, response), 300);
    const server = await scriptedServer(slow);
    const client = clientFor(server.baseUrl, { timeoutMs: 1_000, retries: 0 });
    const background = await withTimeBudget(100, () => outsideTimeBudget(() => client.findVoucher({ code: 'C' })));
    expect(background.data.uuid).toBe(sampleVoucherWithRedemptions.uuid);
  });
});
