import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KioskConfig } from '../../common/config-schema.std.ts';
import { withDotted } from '../../common/dotted-keys.std.ts';
import { silentLogger } from '../../main/logging/logger.std.ts';
import { SlipService } from '../../main/printer/slip-service.node.ts';
import { ledgerAttempt } from '../support/factories.std.ts';
import { standInPrinterOnTcp } from '../support/standin-printer.node.ts';
import { DEFAULT_COUNTS, sample, timed } from './measure.std.ts';
import { spawnSandbox, vouchersToRedeem } from './sandbox-process.node.ts';
import { ledgerIn } from './ledger.bench.node.ts';
import { ms, ratio, summarize, type BenchReport } from './stats.std.ts';

/**
 * From Confirm to the slip's last byte (#31 §3): the sandbox's Redeem round trip, the ledger's row,
 * then the slip laid out, its printer asked how it is, the slip sent to a stand-in ESC/POS printer
 * on TCP and confirmed by it; the last byte is the printer processing the slip's cut.
 */
export async function benchSlip(counts = DEFAULT_COUNTS): Promise<BenchReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-slip-'));
  const sandbox = await spawnSandbox();
  const printer = await standInPrinterOnTcp();
  const ledger = ledgerIn(dir);
  const config = KioskConfig.parse(withDotted({}, printer.settings));
  const slips = new SlipService({ config: () => config, ledger, previewDir: path.join(dir, 'slips'), kioskId: () => 'bench', logger: silentLogger });
  try {
    const { client, manifest } = sandbox;
    const { shops } = manifest;
    const vouchers = await vouchersToRedeem(sandbox, counts);
    const steps = await sample(counts, async (index) => {
      const { code } = vouchers[index]!.data;
      const started = performance.now();
      const [redeem, redeemed] = await timed(() => client.redeemVoucher({ code, shop_uuid: shops[0]!.uuid }));
      const row = ledger.record({ kind: 'redeemed', attempt: ledgerAttempt(code), settledBy: 'redeem', redemptionUuid: redeemed.data.voucher_redemption.uuid })!;
      const lastByte = printer.slipsPrinted(index + 1);
      const slipStarted = performance.now();
      await slips.printProof({ reward: redeemed.data.name, proofCode: row.proofCode!, at: row.at, seq: row.seq, cardLast4: '0132', locale: 'nl', attributes: {} });
      await lastByte;
      const done = performance.now();
      return { redeem, slip: done - slipStarted, confirmToLastByte: done - started };
    });
    const redeem = summarize(steps.map((step) => step.redeem));
    const slip = summarize(steps.map((step) => step.slip));
    const total = summarize(steps.map((step) => step.confirmToLastByte));
    return {
      tables: [
        {
          title: `From Confirm to the slip's last byte: a stand-in ESC/POS printer on TCP; ${counts.iterations} redemptions after ${counts.warmup} warm-up`,
          columns: ['what', 'n', 'p50', 'p95', 'p95 ÷ redeem p95'],
          rows: [
            ['Redeem Voucher round trip (sandbox)', String(redeem.n), ms(redeem.p50), ms(redeem.p95), ratio(1)],
            ['the slip: status asked, sent, confirmed', String(slip.n), ms(slip.p50), ms(slip.p95), ratio(slip.p95 / redeem.p95)],
            ['Confirm to the slip’s last byte', String(total.n), ms(total.p50), ms(total.p95), ratio(total.p95 / redeem.p95)],
          ],
          notes: [
            'The stand-in answers at once and prints instantly: a real printer adds its own printing time (a few hundred ms for a slip) before it answers GS r.',
          ],
        },
      ],
      figures: { ...counts, unit: 'ms', redeemRoundTrip: redeem, slip, confirmToLastByte: total, ratios: { confirmToLastByteP95ToRedeemP95: total.p95 / redeem.p95 } },
    };
  } finally {
    ledger.close();
    await printer.close();
    await sandbox.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
