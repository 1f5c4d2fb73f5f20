import os from 'node:os';
import { DEFAULT_COUNTS, sample, timed } from './measure.std.ts';
import { spawnSandbox, vouchersToRedeem } from './sandbox-process.node.ts';
import { ms, ratio, summarize, type BenchReport } from './stats.std.ts';

/**
 * Sandbox latency over loopback, as the kiosk sees it: the typed client against the sandbox CLI
 * in its own process. Each step walks one fresh voucher through find → lock → release → redeem,
 * so the three operations interleave and drift on this noisy machine hits them alike; release
 * is only there to unlock the voucher and is not timed.
 */
export async function benchSandboxLatency(counts = DEFAULT_COUNTS): Promise<BenchReport> {
  const sandbox = await spawnSandbox();
  try {
    const { client, manifest } = sandbox;
    const shop_uuid = manifest.shops[0]!.uuid;
    const vouchers = await vouchersToRedeem(sandbox, counts);

    const steps = await sample(counts, async (index) => {
      const { code, uuid: voucher_uuid } = vouchers[index]!.data;
      const [find] = await timed(() => client.findVoucher({ code }));
      const [lock, locked] = await timed(() => client.lockVoucher({ voucher_uuid }));
      await client.releaseVoucher({ voucher_uuid, release_key: locked.data.lock.release_key });
      const [redeem] = await timed(() => client.redeemVoucher({ code, shop_uuid }));
      return { find, lock, redeem };
    });

    const find = summarize(steps.map((step) => step.find));
    const lock = summarize(steps.map((step) => step.lock));
    const redeem = summarize(steps.map((step) => step.redeem));
    const rows = (
      [
        ['Find Voucher (GET vouchers/find)', find],
        ['Lock Voucher', lock],
        ['Redeem Voucher', redeem],
      ] as const
    ).map(([name, summary]) => [
      name,
      String(summary.n),
      ms(summary.p50),
      ms(summary.p99),
      ratio(summary.p50 / find.p50),
      ratio(summary.p99 / summary.p50),
    ]);
    return {
      tables: [
        {
          title:
            'Sandbox over loopback: typed client → sandbox CLI (child process), ' +
            `${counts.iterations} steps after ${counts.warmup} warm-up`,
          columns: ['operation', 'n', 'p50', 'p99', 'p50 ÷ find p50', 'p99 ÷ p50'],
          rows,
          notes: [
            'One fresh voucher per step: find → lock → release (not timed) → redeem, interleaved.',
            `Lock and redeem answer after state.json is fsynced (data folder under ${os.tmpdir()}); find writes nothing.`,
          ],
        },
      ],
      figures: {
        ...counts,
        unit: 'ms',
        findVoucher: find,
        lockVoucher: lock,
        redeemVoucher: redeem,
        ratios: { lockP50ToFindP50: lock.p50 / find.p50, redeemP50ToFindP50: redeem.p50 / find.p50 },
      },
    };
  } finally {
    await sandbox.close();
  }
}
