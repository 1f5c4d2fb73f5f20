import type Database from 'better-sqlite3';
import { SlipRecord } from '../../common/report-views.std.ts';

/** The ledger's slips (#31 §3), in SQL: one row per slip printed, or tried, for a redemption. */

interface SlipSqlRow {
  proof_code: string;
  redemption_seq: number;
  at: string;
  duplicate: number;
  outcome: string;
  reason: string | null;
  card_last4: string | null;
  pos_barcode: string | null;
}

export function recordSlip(handle: Database.Database, slip: SlipRecord): void {
  handle
    .prepare(
      `INSERT INTO slips (proof_code, redemption_seq, at, duplicate, outcome, reason, card_last4, pos_barcode)
       VALUES (@proofCode, @redemptionSeq, @at, @duplicate, @outcome, @reason, @cardLast4, @posBarcode)`,
    )
    .run({ ...SlipRecord.parse(slip), duplicate: slip.duplicate ? 1 : 0 });
}

/** The slips of a proof code, oldest first. */
export function slipsOf(handle: Database.Database, proofCode: string): SlipRecord[] {
  const rows = handle.prepare('SELECT * FROM slips WHERE proof_code = ? ORDER BY id').all(proofCode) as SlipSqlRow[];
  return rows.map((row) =>
    SlipRecord.parse({
      proofCode: row.proof_code,
      redemptionSeq: row.redemption_seq,
      at: row.at,
      duplicate: row.duplicate === 1,
      outcome: row.outcome,
      reason: row.reason,
      cardLast4: row.card_last4,
      posBarcode: row.pos_barcode,
    }),
  );
}

/** Slips whose redemption's row was pruned go with it. */
export function pruneSlips(handle: Database.Database): number {
  return handle.prepare('DELETE FROM slips WHERE redemption_seq NOT IN (SELECT seq FROM events)').run().changes;
}
