import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, TestSandbox } from './testing.test-support.ts';

/** POST /_sandbox/clock itself; what the clock drives is tested through the client (test/contract/contract-clock.test.ts). */

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await TestSandbox.start();
});
afterAll(() => sandbox.stop());

const advance = (advance_seconds: unknown) => sandbox.call('advanceClock', { body: { advance_seconds } });

describe('the sandbox clock', () => {
  it('moves forward by whole positive seconds with the API key only', async () => {
    for (const seconds of [0, -5, 1.5, '60', null]) expectError(await advance(seconds), 400, 1003, 'advance_seconds');
    for (const as of ['access_token', 'personal_access_token'] as const) {
      expectError(await sandbox.call('advanceClock', { body: { advance_seconds: 1 }, as }), 401, 401);
    }
    expectError(await sandbox.call('advanceClock', { body: { advance_seconds: 1 }, bearer: 'sbx_key_not-the-real-one' }), 401, 401);
    expectError(await advance(400 * 365 * 24 * 3600 * 100), 400, 1003, 'advance_seconds');
    const before = Date.now();
    const reply = await advance(3600);
    expect(reply.status).toBe(200);
    const now = Date.parse(reply.body.data.now);
    expect(now).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3600_000);
    expect(now).toBeLessThan(Date.now() + 3600_000 + 1000);
  });
});
