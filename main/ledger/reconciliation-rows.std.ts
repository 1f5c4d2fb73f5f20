import type Database from 'better-sqlite3';
import { Mismatch, Reconciliation } from '../../common/report-views.std.ts';
import { AttemptFacts } from './ledger-events.std.ts';
import type { VoucherFacts } from './voucher-check.std.ts';

/**
 * The ledger's side of reconciliation (#30 §3), in SQL: which vouchers a shift redeemed or left
 * open, what a check found for each, and a closed shift's finished result. A closed shift's
 * checks are kept one voucher at a time, so a restart goes on from the next voucher.
 */

/** Attempts locked in `shift` that have no ending row anywhere. */
const OPEN_ATTEMPTS = `SELECT * FROM events WHERE shift = @shift AND kind = 'locked'
  AND attempt_id NOT IN (SELECT attempt_id FROM events WHERE kind IN ('redeemed', 'released', 'lock_lost'))`;

/** Closed shifts whose reconciliation has not finished, oldest first. */
export function shiftsToReconcile(handle: Database.Database): number[] {
  const rows = handle.prepare('SELECT number FROM shifts WHERE closed_at IS NOT NULL AND number NOT IN (SELECT shift FROM reconciliations) ORDER BY number').all() as {
    number: number;
  }[];
  return rows.map(({ number }) => number);
}

/**
 * The vouchers of `shift` still to check: those it redeemed or left an attempt open on, with what
 * the ledger knows of each. The open attempts of a voucher the lock journal still holds (`held`,
 * by voucher uuid) are the journal's to settle, not the check's.
 */
export function vouchersToCheck(handle: Database.Database, shift: number, held: ReadonlySet<string>): VoucherFacts[] {
  const open = (handle.prepare(OPEN_ATTEMPTS).all({ shift }) as Record<string, string | null>[]).filter((row) => !held.has(row.voucher_uuid!));
  const redeemed = handle.prepare("SELECT DISTINCT voucher_uuid FROM events WHERE shift = ? AND kind = 'redeemed'").all(shift) as { voucher_uuid: string }[];
  const checked = new Set((handle.prepare('SELECT voucher_uuid FROM reconciliation_checks WHERE shift = ?').all(shift) as { voucher_uuid: string }[]).map((row) => row.voucher_uuid));
  const uuids = [...new Set([...redeemed.map((row) => row.voucher_uuid), ...open.map((row) => row.voucher_uuid!)])].filter((uuid) => !checked.has(uuid));
  return uuids.map((voucherUuid) => {
    const last = handle.prepare("SELECT voucher_code, voucher_name FROM events WHERE voucher_uuid = ? ORDER BY seq DESC LIMIT 1").get(voucherUuid) as { voucher_code: string; voucher_name: string | null };
    const redemptions = handle.prepare("SELECT count(*) AS count, max(redeemed_at) AS lastAt FROM events WHERE voucher_uuid = ? AND kind = 'redeemed'").get(voucherUuid) as {
      count: number;
      lastAt: string | null;
    };
    return {
      voucherUuid,
      voucherCode: last.voucher_code,
      voucherName: last.voucher_name,
      redemptions: redemptions.count,
      lastRedeemedAt: redemptions.lastAt,
      openAttempts: open.filter((row) => row.voucher_uuid === voucherUuid).map(attemptFactsOf),
    };
  });
}

export function recordCheck(handle: Database.Database, shift: number, check: { voucherUuid: string; mismatch: Mismatch | null; resolved: number; at: string }): void {
  handle
    .prepare('INSERT OR REPLACE INTO reconciliation_checks (shift, voucher_uuid, checked_at, mismatch, resolved) VALUES (?, ?, ?, ?, ?)')
    .run(shift, check.voucherUuid, check.at, check.mismatch && JSON.stringify(check.mismatch), check.resolved);
}

/** A closed shift's reconciliation as far as it went: done and kept, or pending with its checks so far; null for an open shift. */
export function reconciliationOf(handle: Database.Database, shift: number): Reconciliation | null {
  const finished = handle.prepare('SELECT result FROM reconciliations WHERE shift = ?').get(shift) as { result: string } | undefined;
  if (finished) return Reconciliation.parse(JSON.parse(finished.result));
  const closed = handle.prepare('SELECT closed_at FROM shifts WHERE number = ? AND closed_at IS NOT NULL').get(shift);
  if (!closed) return null;
  const progress = checksOf(handle, shift);
  return { ...progress, state: 'pending', vouchers: progress.checked + vouchersToCheck(handle, shift, new Set()).length, finishedAt: null };
}

/** Keeps `shift`'s result beside its Z, once every voucher is checked. */
export function finishReconciliation(handle: Database.Database, shift: number, at: string): Reconciliation {
  const progress = checksOf(handle, shift);
  const result: Reconciliation = { ...progress, state: 'done', vouchers: progress.checked, finishedAt: at };
  handle.prepare('INSERT INTO reconciliations (shift, finished_at, result) VALUES (?, ?, ?)').run(shift, at, JSON.stringify(result));
  return result;
}

/** The mismatch count of the newest finished reconciliation (0 with none), and how many closed shifts wait for theirs. */
export function reconciliationHealth(handle: Database.Database): { mismatches: number; unreconciledShifts: number } {
  const newest = handle.prepare('SELECT result FROM reconciliations ORDER BY shift DESC LIMIT 1').get() as { result: string } | undefined;
  return {
    mismatches: newest ? Reconciliation.parse(JSON.parse(newest.result)).mismatches.length : 0,
    unreconciledShifts: shiftsToReconcile(handle).length,
  };
}

function checksOf(handle: Database.Database, shift: number) {
  const rows = handle.prepare('SELECT mismatch, resolved FROM reconciliation_checks WHERE shift = ? ORDER BY checked_at, voucher_uuid').all(shift) as {
    mismatch: string | null;
    resolved: number;
  }[];
  return {
    checked: rows.length,
    mismatches: rows.flatMap((row) => (row.mismatch ? [Mismatch.parse(JSON.parse(row.mismatch))] : [])),
    resolved: rows.reduce((total, row) => total + row.resolved, 0),
  };
}

function attemptFactsOf(row: Record<string, string | null>): AttemptFacts {
  return AttemptFacts.parse({
    attemptId: row.attempt_id,
    voucherUuid: row.voucher_uuid,
    voucherCode: row.voucher_code,
    voucherName: row.voucher_name,
    promotionName: row.promotion_name,
    contactUuid: row.contact_uuid,
    identifiedBy: row.identified_by,
  });
}
