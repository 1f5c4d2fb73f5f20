import { csvDocument } from '../../base/csv.std.ts';
import type { LedgerRow } from '../../common/report-views.std.ts';
import { LEDGER_COLUMNS } from './ledger-events.std.ts';

/**
 * Ledger rows as CSV for a spreadsheet or head office: RFC 4180, formula-safe, one line per event,
 * the stable LEDGER_COLUMNS with the time both in UTC (`at`) and as the kiosk's business day.
 */
export function ledgerCsv(rows: readonly LedgerRow[]): string {
  return csvDocument(LEDGER_COLUMNS, rows.map((row) => LEDGER_COLUMNS.map((column) => row[column])));
}
