import { ledgerCsv } from '../../ledger/ledger-csv.std.ts';
import { openLedgerToRead, type Ledger } from '../../ledger/ledger.node.ts';
import { BusinessDay, type Reconciliation, type ShiftReport, type Tally } from '../../../common/report-views.std.ts';
import { formatTable } from '../table.std.ts';

/**
 * `kioskctl report`: the redemption ledger of the data folder, read without a screen. X, the list
 * of Zs, one Z and the CSV only read (beside a running kiosk too: SQLite's WAL lets both be); the
 * Z itself writes, so it is the kiosk's to make while the kiosk runs.
 */

/** A report request refused before anything was read or written (exit 2). */
export class ReportRefusal extends Error {}

/** The ledger of `file`, to read; refused with the reason when there is none to read. */
export function readLedger(file: string, names: { kioskId: string | null; shopUuid: string | null }): Ledger {
  try {
    return openLedgerToRead(file, names);
  } catch (error) {
    throw new ReportRefusal(`no ledger to read at ${file}: ${(error as Error).message}`);
  }
}

/** A shift report as lines for a terminal: what a manager reads at the end of the day. */
export function reportText(report: ShiftReport): string {
  const title = report.kind === 'z' ? `Z ${report.zNumber} (shift ${report.shift})` : `X (shift ${report.shift}, not closed)`;
  const tallies = (heading: string, tally: Tally[]) => (tally.length === 0 ? [] : [[heading, ''], ...tally.map(({ name, count }) => [`  ${name ?? '(none)'}`, String(count)])]);
  const rows: string[][] = [
    [title, ''],
    ['kiosk', report.kioskId ?? '-'],
    ['opened', report.openedAt],
    [report.kind === 'z' ? 'closed' : 'now', report.closedAt],
    ['redemptions', String(report.redemptions)],
    ...tallies('by promotion', report.byPromotion),
    ...tallies('by voucher', report.byVoucher),
    ...tallies('released without a redemption, by why', report.releases),
    ...tallies('refused by the platform, by code', report.refusals),
    ['unsettled for a while', `${report.unsettled.attempts} (redeemed ${report.unsettled.redeemed}, released ${report.unsettled.released}, still open ${report.unsettled.open})`],
    ['first redemption', report.firstRedemptionAt ?? '-'],
    ['last redemption', report.lastRedemptionAt ?? '-'],
    ['minutes out of service', String(report.outOfServiceMinutes)],
    ...reconciliationRows(report.reconciliation),
  ];
  return formatTable(rows);
}

/** The report's check against the platform: how far it went, and each voucher the platform disagrees on. */
function reconciliationRows(reconciliation: Reconciliation | null): string[][] {
  if (!reconciliation) return [];
  const { state, checked, vouchers, resolved, mismatches } = reconciliation;
  const progress = state === 'done' ? `done: ${vouchers} vouchers` : `under way: ${checked} of ${vouchers} vouchers`;
  return [
    ['checked with the platform', `${progress}, ${resolved} open attempts settled, ${mismatches.length} mismatches`],
    ...mismatches.map((mismatch) => [
      `  ${mismatch.voucherCode}`,
      `${mismatch.kind.replaceAll('_', ' ')}: ledger ${mismatch.ledgerRedemptions}, platform ${mismatch.platformRedemptions ?? '-'}` +
        (mismatch.kind === 'time_differs' ? ` (${mismatch.ledgerRedeemedAt} / ${mismatch.platformRedeemedAt})` : ''),
    ]),
  ];
}

export function zListText(ledger: Ledger): string {
  const zs = ledger.zReports();
  if (zs.length === 0) return 'no Z report yet\n';
  return formatTable([['Z', 'SHIFT', 'OPENED', 'CLOSED', 'REDEMPTIONS'], ...zs.map((z) => [String(z.zNumber), String(z.shift), z.openedAt, z.closedAt, String(z.redemptions)])]);
}

export function zText(ledger: Ledger, number: string): string {
  const zNumber = /^[1-9]\d{0,8}$/.test(number) ? Number(number) : NaN;
  if (Number.isNaN(zNumber)) throw new ReportRefusal('a Z number is a whole number from 1');
  const z = ledger.zReport(zNumber);
  if (!z) throw new ReportRefusal(`there is no Z ${zNumber} (kioskctl report list)`);
  return reportText(z);
}

/**
 * The CSV of the open shift, of shift N (`--shift N`), or of the business days `--from` to `--to`
 * (either alone: that one day).
 */
export function csvOf(ledger: Ledger, args: readonly string[]): string {
  const options = new Map<string, string>();
  for (let index = 0; index < args.length; index += 2) {
    const [flag, value] = [args[index]!, args[index + 1]];
    if (!['--from', '--to', '--shift'].includes(flag) || value === undefined) throw new ReportRefusal('report csv takes --from YYYY-MM-DD, --to YYYY-MM-DD, or --shift N');
    options.set(flag, value);
  }
  const shift = options.get('--shift');
  if (shift !== undefined) {
    if (options.size > 1 || !/^[1-9]\d{0,8}$/.test(shift)) throw new ReportRefusal('--shift N alone, N a whole number from 1');
    return ledgerCsv(ledger.rows({ shift: Number(shift) }));
  }
  const [from, to] = [options.get('--from') ?? options.get('--to'), options.get('--to') ?? options.get('--from')];
  if (from === undefined || to === undefined) return ledgerCsv(ledger.rows({ shift: ledger.status().shift ?? 0 }));
  if (!BusinessDay.safeParse(from).success || !BusinessDay.safeParse(to).success || from > to) throw new ReportRefusal('--from and --to are business days, YYYY-MM-DD, the first not after the last');
  return ledgerCsv(ledger.rows({ fromDay: from, toDay: to }));
}

