import { describe, expect, it } from 'vitest';
import { contractSuite, expectRefused } from './contract.test-support.ts';

/** What the sandbox clock drives, seen through the client: the one-hour lock release, expiry, activation. */

const suite = contractSuite();

// The clock is the sandbox's own operation, which the client does not have.
const advance = (advance_seconds: number) => suite.sandbox.call('advanceClock', { body: { advance_seconds } });
const statusOf = async (code: string) => (await suite.client.findVoucher({ code })).data.status;

describe('the sandbox clock', () => {
  it('releases a lock by itself once its hour has passed; the old key then no longer works', async () => {
    const voucher_uuid = suite.sandbox.voucherUuid('KFQ7M2XA');
    const { release_key } = (await suite.client.lockVoucher({ voucher_uuid })).data.lock;
    // A margin of a minute: the wall clock keeps ticking underneath the offset.
    await advance(3540);
    expect(await statusOf('KFQ7M2XA')).toBe('LOCKED');
    await advance(60);
    expect(await statusOf('KFQ7M2XA')).toBe('ACTIVE');
    await expectRefused(suite.client.releaseVoucher({ voucher_uuid, release_key }), 'conflict', 409, 409);
    await expectRefused(
      suite.client.redeemVoucher({ code: 'KFQ7M2XA', shop_uuid: suite.sandbox.shopUuid, release_key }),
      'conflict',
      409,
      409,
    );
    const relock = await suite.client.lockVoucher({ voucher_uuid });
    expect(relock.data.lock.release_key).not.toBe(release_key);
  });

  it('lets vouchers expire and become active as it passes their dates', async () => {
    expect(await statusOf('KRT5XP2N')).toBe('ACTIVE');
    expect(await statusOf('KRT4Q6ZF')).toBe('INACTIVE');
    await advance(8 * 24 * 3600);
    expect(await statusOf('KRT5XP2N')).toBe('EXPIRED');
    expect(await statusOf('KRT4Q6ZF')).toBe('ACTIVE');
  });
});
