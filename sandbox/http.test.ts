import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthScheme } from '../api/operations.std.ts';
import { BODY_LIMIT_BYTES } from './http-server.node.ts';
import { routedOperations, type RoutedOperationId } from './routes.std.ts';
import { expectError, TestSandbox } from './testing.test-support.ts';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await TestSandbox.start();
});
afterAll(() => sandbox.stop());

const SCHEMES: AuthScheme[] = ['api_key', 'access_token', 'personal_access_token'];
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const params = { portal_session_uuid: UNKNOWN, voucher_uuid: UNKNOWN, contact_uuid: UNKNOWN };
const ids = Object.keys(routedOperations) as RoutedOperationId[];

describe('authentication, per operation', () => {
  it.each(ids)('%s refuses a missing, unknown or other kind of credential with 401', async (id) => {
    const accepted: readonly AuthScheme[] = routedOperations[id].auth;
    expectError(await sandbox.call(id, { params, as: null }), 401, 401);
    expectError(await sandbox.call(id, { params, bearer: 'sbx_key_not-the-real-one' }), 401, 401);
    for (const scheme of SCHEMES.filter((candidate) => !accepted.includes(candidate))) {
      expectError(await sandbox.call(id, { params, as: scheme }), 401, 401);
    }
    for (const scheme of accepted) {
      expect((await sandbox.call(id, { params, as: scheme })).status).not.toBe(401);
    }
  });

  it('follows the spec table: portal sessions take the access token or the API key, validity the personal token', () => {
    const kinds = (id: RoutedOperationId) => [...routedOperations[id].auth].sort();
    expect(kinds('getPortalSession')).toEqual(['access_token', 'api_key']);
    expect(kinds('createRedeemGiftcardsPortalSession')).toEqual(['access_token', 'api_key']);
    expect(kinds('checkVoucherValidity')).toEqual(['personal_access_token']);
    expect(kinds('redeemVoucher')).toEqual(['api_key']);
  });

  it('reads the Bearer scheme case-insensitively and nothing else as a credential', async () => {
    const ok = await sandbox.fetch('GET', '/reward-attributes', { headers: { authorization: `bearer ${sandbox.credentials.api_key}` } });
    expect(ok.status).toBe(200);
    const basic = await sandbox.fetch('GET', '/reward-attributes', { headers: { authorization: `Basic ${sandbox.credentials.api_key}` } });
    expectError(basic, 401, 401);
  });
});

describe('HTTP plumbing', () => {
  const key = () => ({ authorization: `Bearer ${sandbox.credentials.api_key}` });

  it('answers unknown routes and methods with JSON errors', async () => {
    expectError(await sandbox.fetch('GET', '/nothing-here', { headers: key() }), 404, 404);
    expectError(await sandbox.fetch('GET', '', { headers: key() }), 404, 404);
    expectError(await sandbox.fetch('GET', '/vouchers/find/extra', { headers: key() }), 404, 404);
    expectError(await sandbox.fetch('DELETE', '/vouchers', { headers: key() }), 405, 405);
    expectError(await sandbox.fetch('GET', '/%E0%A4%A', { headers: key() }), 404, 404);
    const outside = await fetch(`${new URL(sandbox.baseUrl).origin}/elsewhere`);
    expect(outside.status).toBe(404);
    expect(await outside.json()).toMatchObject({ code: 404, status_code: 404 });
  });

  it('answers malformed JSON with 400, after checking the credential', async () => {
    expectError(await sandbox.fetch('POST', '/vouchers', { headers: key(), body: '{"promotion_uuid":' }), 400, 1003);
    expectError(await sandbox.fetch('POST', '/vouchers', { body: '{"promotion_uuid":' }), 401, 401);
    expectError(await sandbox.fetch('POST', '/vouchers', { headers: key(), body: '[1,2]' }), 400, 1003, 'body');
  });

  it('refuses a body over 1 MB with 413 and keeps serving', async () => {
    const big = JSON.stringify({ code: 'x'.repeat(BODY_LIMIT_BYTES) });
    expectError(await sandbox.fetch('POST', '/vouchers/redeem', { headers: key(), body: big }), 413, 413);
    expect((await sandbox.call('listRewardAttributes')).status).toBe(200);
  });

  it('answers JSON with no-store caching and nosniff', async () => {
    const reply = await sandbox.call('listRewardAttributes');
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
