import { csvDocument } from '../../base/csv.std.ts';
import { LEDGER_COLUMNS, type LedgerRow } from './ledger-events.std.ts';

/**
 * Ledger rows as CSV for a spreadsheet or head office: RFC 4180, formula-safe, one line per event,
 * the stable LEDGER_COLUMNS with the time both in UTC (`at`) and as the kiosk's business day.
 */
export function ledgerCsv(rows: readonly LedgerRow[]): string {
  return csvDocument(LEDGER_COLUMNS, rows.map((row) => LEDGER_COLUMNS.map((column) => row[column])));
}
