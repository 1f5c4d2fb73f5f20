import { LedgerRow } from '../../common/report-views.std.ts';

/** A row of the ledger's `events` table as SQLite answers it, column by column. */
export type SqlRow = Record<string, string | number | null>;

export function rowOf(row: SqlRow): LedgerRow {
  return LedgerRow.parse({
    seq: row.seq,
    kind: row.kind,
    attemptId: row.attempt_id,
    shift: row.shift,
    at: row.at,
    localAt: row.local_at,
    businessDay: row.business_day,
    kioskId: row.kiosk_id,
    shopUuid: row.shop_uuid,
    voucherUuid: row.voucher_uuid,
    voucherCode: row.voucher_code,
    voucherName: row.voucher_name,
    promotionName: row.promotion_name,
    contactUuid: row.contact_uuid,
    identifiedBy: row.identified_by,
    reason: row.reason,
    platformCode: row.platform_code,
    redemptionUuid: row.redemption_uuid,
    redeemedAt: row.redeemed_at,
    settledBy: row.settled_by,
    proofCode: row.proof_code,
  });
}
