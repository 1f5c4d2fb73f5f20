import { csvDocument } from '../../../base/csv.std.ts';
import { ShiftReport } from '../../../common/report-views.std.ts';

/** A kiosk's answer as kioskctl keeps it (fleet-operator's AnswerSeen). */
interface Answer {
  outcome: 'ok' | 'failed' | 'waiting';
  detail: string;
  result?: unknown;
}

/** One kiosk's line in `fleet report`: its shift report, or why there is none. */
export interface FleetReportRow {
  kioskId: string;
  report: ShiftReport | null;
  /** No report: the kiosk's refusal, `no answer`, or `not a report` (an answer this kioskctl cannot read). */
  missing: string | null;
}

const sum = (tally: ShiftReport['releases']) => tally.reduce((total, { count }) => total + count, 0);

/** The rows for `everyone`, from what each answered (a kiosk's answer is parsed, never trusted). */
export function reportRows(everyone: readonly string[], answers: ReadonlyMap<string, Answer>): FleetReportRow[] {
  return everyone.map((kioskId) => {
    const answer = answers.get(kioskId);
    if (!answer || answer.outcome === 'waiting') return { kioskId, report: null, missing: 'no answer' };
    if (answer.outcome === 'failed') return { kioskId, report: null, missing: answer.detail };
    const report = ShiftReport.safeParse(answer.result);
    return report.success ? { kioskId, report: report.data, missing: null } : { kioskId, report: null, missing: 'not a report' };
  });
}

/** Where the platform disagreed with the report's redemptions, once the check is done. */
const checkedMismatches = ({ reconciliation }: ShiftReport) => (reconciliation?.state === 'done' ? reconciliation.mismatches.length : 0);
/** The mismatch count, `checking` until the check is done, `-` unasked (an X). */
const mismatches = (report: ShiftReport) =>
  !report.reconciliation ? '-' : report.reconciliation.state === 'done' ? String(checkedMismatches(report)) : 'checking';

const which = (report: ShiftReport) => (report.kind === 'z' ? `Z ${report.zNumber}` : `X shift ${report.shift}`);

export function fleetReportTable(rows: readonly FleetReportRow[]): string[][] {
  const reports = rows.flatMap((row) => (row.report ? [row.report] : []));
  const lines = rows.map(({ kioskId, report, missing }) =>
    report
      ? [
          kioskId,
          which(report),
          String(report.redemptions),
          String(sum(report.releases)),
          String(sum(report.refusals)),
          String(report.unsettled.open),
          mismatches(report),
          report.firstRedemptionAt ?? '-',
          report.lastRedemptionAt ?? '-',
        ]
      : [kioskId, missing ?? '', '', '', '', '', '', '', ''],
  );
  const total = (count: (report: ShiftReport) => number) => String(reports.reduce((all, report) => all + count(report), 0));
  return [
    ['KIOSK', 'REPORT', 'REDEMPTIONS', 'RELEASED', 'REFUSED', 'UNSETTLED', 'MISMATCHES', 'FIRST', 'LAST'],
    ...lines,
    [`total (${reports.length} of ${rows.length})`, '', total((report) => report.redemptions), total((report) => sum(report.releases)), total((report) => sum(report.refusals)), total((report) => report.unsettled.open), total(checkedMismatches), '', ''],
  ];
}

const CSV_COLUMNS = ['kioskId', 'report', 'shift', 'zNumber', 'openedAt', 'closedAt', 'redemptions', 'released', 'refused', 'unsettledOpen', 'firstRedemptionAt', 'lastRedemptionAt', 'outOfServiceMinutes', 'missing', 'mismatches'] as const;
// New columns go last: a head office's sheets read the older ones by place.

/** One line per kiosk, a kiosk without a report included (its `missing` says why), no total: a sheet sums. */
export function fleetReportCsv(rows: readonly FleetReportRow[]): string {
  return csvDocument(
    CSV_COLUMNS,
    rows.map(({ kioskId, report, missing }) => [
      kioskId,
      report?.kind ?? null,
      report?.shift ?? null,
      report?.zNumber ?? null,
      report?.openedAt ?? null,
      report?.closedAt ?? null,
      report?.redemptions ?? null,
      report ? sum(report.releases) : null,
      report ? sum(report.refusals) : null,
      report?.unsettled.open ?? null,
      report?.firstRedemptionAt ?? null,
      report?.lastRedemptionAt ?? null,
      report?.outOfServiceMinutes ?? null,
      missing,
      report?.reconciliation?.state === 'done' ? checkedMismatches(report) : null,
    ]),
  );
}
