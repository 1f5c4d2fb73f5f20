import { BridgeFailure, type CallHandlers } from '../bridge/dispatcher.std.ts';
import { ledgerCsv } from '../ledger/ledger-csv.std.ts';
import type { Ledger } from '../ledger/ledger.node.ts';
import type { Reconciler } from '../ledger/reconciler.node.ts';
import { isProofCode } from '../ledger/proof-code.std.ts';
import { closeShiftByHand, ShiftBusy } from '../ledger/close-shift.node.ts';
import type { Logger } from '../logging/logger.std.ts';
import type { ExportDelivery } from '../manager/export-delivery.std.ts';
import { RedemptionEventView } from '../../common/report-views.std.ts';

export interface ReportOptions {
  ledger: Ledger;
  /** The open shift's check against the platform, on demand. */
  reconciler: Pick<Reconciler, 'checkOpenShift'>;
  /** Voucher locks held now: a Z waits until none is (a shopper mid-redemption belongs in this shift). */
  locksHeld: () => number;
  deliver: ExportDelivery;
  logger: Logger;
  now: () => number;
}

/** The console's Reports tab: X, the Zs, a Z, a shift's CSV, and one voucher's events. */
export function createReportHandlers({ ledger, reconciler, locksHeld, deliver, logger, now }: ReportOptions) {
  return {
    getXReport: async () => ledger.xReport(),
    listZReports: async () => ledger.zReports(),
    getZReport: async ({ zNumber }) => ledger.zReport(zNumber) ?? notFound(`there is no Z ${zNumber}`),
    closeShift: async () => {
      try {
        return closeShiftByHand({ ledger, locksHeld, logger }, 'console');
      } catch (error) {
        if (error instanceof ShiftBusy) throw new BridgeFailure('busy', error.message);
        throw error;
      }
    },
    // The view's schema keeps the fields a manager sees: the shopper's contact stays in the ledger.
    // A slip's proof code finds its redemption; any other code the voucher's every event.
    findRedemptions: async ({ code }) => {
      const rows = [...(isProofCode(code) ? ledger.rowsForProof(code) : []), ...ledger.rowsForCode(code)];
      const bySeq = new Map(rows.map((row) => [row.seq, row]));
      return [...bySeq.values()].sort((a, b) => a.seq - b.seq).map((row) => RedemptionEventView.parse(row));
    },
    reconcileOpenShift: async () => {
      const reconciliation = await reconciler.checkOpenShift();
      logger.info('the open shift checked against the platform in the console', { event: 'ledger.reconciled_by_console', mismatches: reconciliation.mismatches.length });
      return { ...ledger.xReport(), reconciliation };
    },
    exportLedgerCsv: async (range) => {
      if ('fromDay' in range) return deliver(`loyalty-kiosk-${range.fromDay}-to-${range.toDay}.csv`, ledgerCsv(ledger.rows(range)));
      const number = range.shift ?? ledger.status().shift ?? notFound('the ledger has no open shift');
      const stamp = new Date(now()).toISOString().slice(0, 10);
      return deliver(`loyalty-kiosk-shift-${number}-${stamp}.csv`, ledgerCsv(ledger.rows({ shift: number })));
    },
  } satisfies Partial<CallHandlers>;
}

function notFound(message: string): never {
  throw new BridgeFailure('not_found', message);
}
