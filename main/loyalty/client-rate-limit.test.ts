import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/sandbox.node.ts';
import { createLoyaltyClient, RATE_LIMIT_WAIT_MS } from './client.node.ts';
import { retryAfterMsOf } from './errors.std.ts';
import { failure } from './loyalty-error.test-support.ts';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'rate-limit-')) });
});
afterAll(() => sandbox.close());

/** Tells the sandbox to answer the next `requests` platform calls (to `paths`, if given) 429 with this Retry-After. */
async function rateLimit(requests: number, retryAfter: number | string, paths?: string[]) {
  const response = await fetch(`${sandbox.baseUrl}/_sandbox/rate-limit`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${sandbox.manifest.credentials.api_key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ requests, retry_after: retryAfter, paths }),
  });
  expect(response.status).toBe(200);
}

const client = () =>
  createLoyaltyClient({ baseUrl: sandbox.baseUrl, credentials: async () => ({ apiKey: sandbox.manifest.credentials.api_key }), retryDelayMs: 5 });

describe('a platform that answers 429 (rate limited)', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-24T18:00:00Z');
    expect(retryAfterMsOf('3', now)).toBe(3000);
    expect(retryAfterMsOf('Tue, 24 Nov 2026 18:00:02 GMT', now)).toBe(2000);
    expect(retryAfterMsOf('Tue, 24 Nov 2026 17:59:00 GMT', now)).toBe(0);
    expect(retryAfterMsOf('soon', now)).toBeUndefined();
    expect(retryAfterMsOf(null, now)).toBeUndefined();
  });

  it('waits out a short Retry-After and tries once more, a POST too (a 429 changed nothing)', async () => {
    await rateLimit(1, 1);
    const started = performance.now();
    const found = await client().findVoucher({ code: 'KOFFIE24' });
    expect(found.data.code).toBe('KOFFIE24');
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);

    const voucherUuid = (await client().findVoucher({ code: 'KF9R4TBZ' })).data.uuid;
    await rateLimit(1, new Date(Date.now() + 2000).toUTCString());
    const locked = await client().lockVoucher({ voucher_uuid: voucherUuid });
    const released = await client().releaseVoucher({ voucher_uuid: voucherUuid, release_key: locked.data.lock.release_key });
    expect(locked.data.voucher.status).toBe('LOCKED');
    expect(released.data.voucher.status).toBe('ACTIVE');
  });

  it('does not keep a shopper waiting past 5 s: a long Retry-After is a rate_limited error at once', async () => {
    await rateLimit(1, 30);
    const started = performance.now();
    const error = await failure(client().findVoucher({ code: 'KOFFIE24' }));
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 30_000 });
    expect(performance.now() - started).toBeLessThan(RATE_LIMIT_WAIT_MS);
  });

  it('tries only once more: a second 429 is the answer', async () => {
    await rateLimit(2, 0);
    const error = await failure(client().findVoucher({ code: 'KOFFIE24' }));
    expect(error.kind).toBe('rate_limited');
    // The limit is used up: the next call goes through.
    await expect(client().findVoucher({ code: 'KOFFIE24' })).resolves.toMatchObject({ data: { code: 'KOFFIE24' } });
  });

  it('can be aimed at some paths (the sandbox): calls to others go through and do not use it up', async () => {
    await rateLimit(1, 0, ['/vouchers/find']);
    await expect(client().listVouchers({ limit: 1 })).resolves.toMatchObject({ data: expect.any(Array) });
    await expect(client().listVouchers({ limit: 1 })).resolves.toMatchObject({ data: expect.any(Array) });
    const limited = await fetch(`${sandbox.baseUrl}/vouchers/find?code=KOFFIE24`, {
      headers: { Authorization: `Bearer ${sandbox.manifest.credentials.api_key}` },
    });
    expect(limited.status).toBe(429);
    await expect(client().findVoucher({ code: 'KOFFIE24' })).resolves.toMatchObject({ data: { code: 'KOFFIE24' } });
  });
});
