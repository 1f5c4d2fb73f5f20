import { parse as parseCsv } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { shiftReport } from '../../../test/support/factories.std.ts';
import type { Mismatch } from '../../../common/report-views.std.ts';
import { fleetReportCsv, fleetReportTable, type FleetReportRow } from './fleet-report.std.ts';

const mismatch: Mismatch = { kind: 'fewer_at_platform', voucherCode: 'C-1', voucherName: null, ledgerRedemptions: 1, platformRedemptions: 0, ledgerRedeemedAt: null, platformRedeemedAt: null };
const checked = (state: 'done' | 'pending', mismatches: Mismatch[]) => ({ state, checked: 2, vouchers: 2, mismatches, resolved: 0, finishedAt: null });

const rows: FleetReportRow[] = [
  { kioskId: 'store-1', report: shiftReport({ kind: 'z', zNumber: 4, reconciliation: checked('done', [mismatch, mismatch]) }), missing: null },
  { kioskId: 'store-2', report: shiftReport({ kind: 'z', zNumber: 9, reconciliation: checked('pending', [mismatch]) }), missing: null },
  { kioskId: 'store-3', report: shiftReport(), missing: null },
];

describe("the fleet's report table (#30 §3)", () => {
  it("shows each kiosk's mismatches with the platform once its Z is checked, and totals the checked ones", () => {
    const table = fleetReportTable(rows);
    const column = table[0]!.indexOf('MISMATCHES');
    expect(table.map((line) => line[column])).toEqual(['MISMATCHES', '2', 'checking', '-', '2']);
  });

  it('adds the mismatch count as the last CSV column, empty until checked', () => {
    const csv = parseCsv(fleetReportCsv(rows), { columns: true }) as Record<string, string>[];
    expect(Object.keys(csv[0]!).at(-1)).toBe('mismatches');
    expect(csv.map((row) => row.mismatches)).toEqual(['2', '', '']);
  });
});
