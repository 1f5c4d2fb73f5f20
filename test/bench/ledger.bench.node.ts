import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openLedger, type Ledger } from '../../main/ledger/ledger.node.ts';
import { silentLogger } from '../../main/logging/logger.std.ts';
import { dataFiles } from '../../main/paths/data-files.node.ts';
import { ledgerAttempt } from '../support/factories.std.ts';
import { DEFAULT_COUNTS, sample, timed } from './measure.std.ts';
import { spawnSandbox, vouchersToRedeem } from './sandbox-process.node.ts';
import { ms, ratio, summarize, type BenchReport } from './stats.std.ts';

/** Rows in the big ledger X and Z are timed over. */
const BIG_LEDGER_ROWS = 100_000;
const REPORTS = 20;
const ZS = 5;
const X_TARGET_MS = 200;

/**
 * The redemption ledger on this machine's disk (under the OS temp folder): the row written per
 * redemption against the sandbox's Redeem round trip in the same steps, and X and Z reports over
 * a shift of 100,000 rows.
 */
export async function benchLedger(counts = DEFAULT_COUNTS): Promise<BenchReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ledger-'));
  try {
    const perRedemption = await writesAgainstRedeem(dir, counts);
    const big = bigLedger(path.join(dir, 'big'));
    const x = summarize(Array.from({ length: REPORTS }, () => timedSync(() => big.ledger.xReport())));
    big.ledger.close();
    const zs = Array.from({ length: ZS }, (_, index) => zOnCopy(big.file, path.join(dir, `z-${index}`)));
    const z = summarize(zs.map((run) => run.z));
    const toCheck = summarize(zs.map((run) => run.toCheck));
    const pendingZ = summarize(zs.map((run) => run.pendingZ));
    const rows = [
      ['ledger row per redemption (synced)', String(perRedemption.write.n), ms(perRedemption.write.p50), ms(perRedemption.write.p95), ratio(perRedemption.write.p50 / perRedemption.redeem.p50)],
      ['Redeem Voucher round trip (sandbox)', String(perRedemption.redeem.n), ms(perRedemption.redeem.p50), ms(perRedemption.redeem.p95), ratio(1)],
      [`X over ${BIG_LEDGER_ROWS.toLocaleString('en')} rows`, String(x.n), ms(x.p50), ms(x.p95), '-'],
      [`Z over ${BIG_LEDGER_ROWS.toLocaleString('en')} rows`, String(z.n), ms(z.p50), ms(z.p95), '-'],
      [`that Z's ${zs[0]!.vouchers.toLocaleString('en')} vouchers to check against the platform`, String(toCheck.n), ms(toCheck.p50), ms(toCheck.p95), '-'],
      ["that Z read back with its check's progress", String(pendingZ.n), ms(pendingZ.p50), ms(pendingZ.p95), '-'],
    ];
    return {
      tables: [
        {
          title: `Redemption ledger (SQLite, WAL, synchronous=FULL) under ${os.tmpdir()}; ${counts.iterations} redemptions after ${counts.warmup} warm-up`,
          columns: ['what', 'n', 'p50', 'p95', 'p50 ÷ redeem p50'],
          rows,
          notes: [
            'Each step redeems a fresh voucher at the sandbox (its own process), then writes that redemption\'s row: interleaved, so drift hits both alike.',
            `X target: under ${X_TARGET_MS} ms at p95 (${x.p95 < X_TARGET_MS ? 'met' : 'NOT met'}). Z closes the shift over a copy of the same file each time.`,
          ],
        },
      ],
      figures: {
        ...counts,
        unit: 'ms',
        rowPerRedemption: perRedemption.write,
        redeemRoundTrip: perRedemption.redeem,
        ratios: { rowP50ToRedeemP50: perRedemption.write.p50 / perRedemption.redeem.p50, rowP95ToRedeemP95: perRedemption.write.p95 / perRedemption.redeem.p95 },
        xOver100k: x,
        zOver100k: z,
        vouchersToCheckOver100k: toCheck,
        pendingZReadOver100k: pendingZ,
        xTargetMet: x.p95 < X_TARGET_MS,
      },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function timedSync(task: () => unknown): number {
  const started = performance.now();
  task();
  return performance.now() - started;
}

/** A ledger in `dir` named as the bench's kiosk. */
export function ledgerIn(dir: string): Ledger {
  fs.mkdirSync(dir, { recursive: true });
  return openLedger({
    file: dataFiles(dir).ledger,
    logger: silentLogger,
    kioskId: () => 'bench',
    shopUuid: () => null,
    businessDay: () => ({ startsAt: '04:00' }),
    retentionDays: () => 400,
  });
}

async function writesAgainstRedeem(dir: string, counts: typeof DEFAULT_COUNTS) {
  const sandbox = await spawnSandbox();
  const ledger = ledgerIn(path.join(dir, 'kiosk'));
  try {
    const { client, manifest } = sandbox;
    const { shops } = manifest;
    const vouchers = await vouchersToRedeem(sandbox, counts);
    const steps = await sample(counts, async (index) => {
      const { code } = vouchers[index]!.data;
      const [redeem, redeemed] = await timed(() => client.redeemVoucher({ code, shop_uuid: shops[0]!.uuid }));
      const attempt = ledgerAttempt(code);
      const { uuid, created_at } = redeemed.data.voucher_redemption;
      const write = timedSync(() => ledger.record({ kind: 'redeemed', attempt, settledBy: 'redeem', redemptionUuid: uuid, redeemedAt: created_at }));
      return { redeem, write };
    });
    return { redeem: summarize(steps.map((step) => step.redeem)), write: summarize(steps.map((step) => step.write)) };
  } finally {
    ledger.close();
    await sandbox.close();
  }
}

/** A ledger whose open shift holds BIG_LEDGER_ROWS rows: redemptions of a handful of promotions, and their locks. */
function bigLedger(dir: string): { ledger: Ledger; file: string } {
  ledgerIn(dir).close();
  const file = dataFiles(dir).ledger;
  const db = new Database(file);
  const insert = db.prepare(
    `INSERT INTO events (kind, attempt_id, shift, at, local_at, business_day, kiosk_id, voucher_uuid, voucher_code, voucher_name, promotion_name, reason)
     VALUES (?, ?, 1, ?, ?, ?, 'bench', ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let index = 0; index < BIG_LEDGER_ROWS; index++) {
      const attempt = Math.floor(index / 2);
      const kind = index % 2 === 0 ? 'locked' : attempt % 10 === 0 ? 'released' : 'redeemed';
      const at = new Date(Date.UTC(2026, 10, 1) + index * 1000).toISOString();
      insert.run(kind, `a-${attempt}`, at, at, at.slice(0, 10), `v-${attempt}`, `CODE-${attempt}`, `Voucher ${attempt % 40}`, `Promotion ${attempt % 7}`, kind === 'released' ? 'cancel' : null);
    }
  })();
  db.close();
  return { ledger: ledgerIn(dir), file };
}

/**
 * One Z over a copy of the big ledger, then what its reconciliation reads of it: the vouchers to
 * check (all of them, none checked yet), and the Z with its progress as the console shows it; in ms.
 */
function zOnCopy(file: string, dir: string): { z: number; toCheck: number; pendingZ: number; vouchers: number } {
  fs.mkdirSync(dir);
  fs.copyFileSync(file, dataFiles(dir).ledger);
  const ledger = ledgerIn(dir);
  try {
    const z = timedSync(() => ledger.closeShift());
    let vouchers = 0;
    const toCheck = timedSync(() => (vouchers = ledger.vouchersToCheck(1, new Set()).length));
    const pendingZ = timedSync(() => ledger.zReport(1));
    return { z, toCheck, pendingZ, vouchers };
  } finally {
    ledger.close();
  }
}
