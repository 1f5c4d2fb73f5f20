import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, TestSandbox } from './testing.test-support.ts';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await TestSandbox.start();
});
afterAll(() => sandbox.stop());

const advance = (advance_seconds: unknown) => sandbox.call('advanceClock', { body: { advance_seconds } });
const statusOf = async (code: string) =>
  (await sandbox.call('findVoucher', { query: { code } })).body.data.status as string;

describe('the sandbox clock', () => {
  it('moves forward by whole positive seconds with the API key only', async () => {
    for (const seconds of [0, -5, 1.5, '60', null]) expectError(await advance(seconds), 400, 1003, 'advance_seconds');
    expectError(await sandbox.call('advanceClock', { body: { advance_seconds: 1 }, as: 'access_token' }), 401, 401);
    expectError(await advance(400 * 365 * 24 * 3600 * 100), 400, 1003, 'advance_seconds');
    const before = Date.now();
    const reply = await advance(3600);
    expect(reply.status).toBe(200);
    const now = Date.parse(reply.body.data.now);
    expect(now).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3600_000);
    expect(now).toBeLessThan(Date.now() + 3600_000 + 1000);
  });

  it('releases a lock by itself once its hour has passed; the old key then no longer works', async () => {
    const uuid = sandbox.voucherUuid('KFQ7M2XA');
    const { release_key } = (await sandbox.call('lockVoucher', { params: { voucher_uuid: uuid } })).body.data.lock;
    // A margin of a minute: the wall clock keeps ticking underneath the offset.
    await advance(3540);
    expect(await statusOf('KFQ7M2XA')).toBe('LOCKED');
    await advance(60);
    expect(await statusOf('KFQ7M2XA')).toBe('ACTIVE');
    expectError(
      await sandbox.call('releaseVoucher', { params: { voucher_uuid: uuid }, body: { release_key } }),
      409,
      409,
    );
    expectError(
      await sandbox.call('redeemVoucher', { body: { code: 'KFQ7M2XA', shop_uuid: sandbox.shopUuid, release_key } }),
      409,
      409,
    );
    const relock = await sandbox.call('lockVoucher', { params: { voucher_uuid: uuid } });
    expect(relock.body.data.lock.release_key).not.toBe(release_key);
  });

  it('lets vouchers expire and become active as it passes their dates', async () => {
    expect(await statusOf('KRT5XP2N')).toBe('ACTIVE');
    expect(await statusOf('KRT4Q6ZF')).toBe('INACTIVE');
    await advance(8 * 24 * 3600);
    expect(await statusOf('KRT5XP2N')).toBe('EXPIRED');
    expect(await statusOf('KRT4Q6ZF')).toBe('ACTIVE');
  });
});
