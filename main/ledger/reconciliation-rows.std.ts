import type Database from 'better-sqlite3';
import { Mismatch, Reconciliation } from '../../common/report-views.std.ts';
import { AttemptFacts } from './ledger-events.std.ts';
import type { VoucherFacts } from './voucher-check.std.ts';
import { rowOf, type SqlRow } from './ledger-rows.std.ts';

/**
 * The ledger's side of reconciliation (#30 §3), in SQL: which vouchers a shift redeemed or left
 * open, what a check found for each, and a closed shift's finished result. A closed shift's
 * checks are kept one voucher at a time, so a restart goes on from the next voucher.
 */

/** Attempts locked in `shift` that have no ending row anywhere. */
const OPEN_ATTEMPTS = `SELECT * FROM events WHERE shift = @shift AND kind = 'locked'
  AND attempt_id NOT IN (SELECT attempt_id FROM events WHERE kind IN ('redeemed', 'released', 'lock_lost'))`;

/** The vouchers of `shift` to check and not checked yet: those it redeemed, or left an attempt open on. */
const UNCHECKED = `SELECT voucher_uuid FROM events WHERE shift = @shift AND kind = 'redeemed'
  UNION SELECT voucher_uuid FROM (${OPEN_ATTEMPTS})
  EXCEPT SELECT voucher_uuid FROM reconciliation_checks WHERE shift = @shift`;

/** What the ledger knows of each unchecked voucher, over the index by voucher: quick over a shift of 100,000 rows. */
const FACTS = `SELECT voucher_uuid,
    (SELECT voucher_code FROM events AS e WHERE e.voucher_uuid = v.voucher_uuid ORDER BY seq DESC LIMIT 1) AS voucher_code,
    (SELECT voucher_name FROM events AS e WHERE e.voucher_uuid = v.voucher_uuid ORDER BY seq DESC LIMIT 1) AS voucher_name,
    (SELECT count(*) FROM events AS e WHERE e.voucher_uuid = v.voucher_uuid AND kind = 'redeemed') AS redemptions,
    (SELECT max(redeemed_at) FROM events AS e WHERE e.voucher_uuid = v.voucher_uuid AND kind = 'redeemed') AS last_redeemed_at
  FROM (${UNCHECKED}) AS v ORDER BY voucher_uuid`;

/** Closed shifts whose reconciliation has not finished, oldest first. */
export function shiftsToReconcile(handle: Database.Database): number[] {
  const rows = handle.prepare('SELECT number FROM shifts WHERE closed_at IS NOT NULL AND number NOT IN (SELECT shift FROM reconciliations) ORDER BY number').all() as {
    number: number;
  }[];
  return rows.map(({ number }) => number);
}

/**
 * The vouchers of `shift` still to check, with what the ledger knows of each. The open attempts of
 * a voucher the lock journal still holds (`held`, by voucher uuid) are the journal's to settle,
 * not the check's: the voucher is checked, its attempt left alone.
 */
export function vouchersToCheck(handle: Database.Database, shift: number, held: ReadonlySet<string>): VoucherFacts[] {
  const open = (handle.prepare(OPEN_ATTEMPTS).all({ shift }) as SqlRow[]).filter((row) => !held.has(String(row.voucher_uuid)));
  const facts = handle.prepare(FACTS).all({ shift }) as Array<{ voucher_uuid: string; voucher_code: string; voucher_name: string | null; redemptions: number; last_redeemed_at: string | null }>;
  return facts.map((row) => ({
    voucherUuid: row.voucher_uuid,
    voucherCode: row.voucher_code,
    voucherName: row.voucher_name,
    redemptions: row.redemptions,
    lastRedeemedAt: row.last_redeemed_at,
    openAttempts: open.filter((attempt) => attempt.voucher_uuid === row.voucher_uuid).map(attemptFactsOf),
  }));
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
  const unchecked = (handle.prepare(`SELECT count(*) AS count FROM (${UNCHECKED})`).get({ shift }) as { count: number }).count;
  return { ...progress, state: 'pending', vouchers: progress.checked + unchecked, finishedAt: null };
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
  const rows = handle.prepare('SELECT mismatch, resolved FROM reconciliation_checks WHERE shift = ?').all(shift) as {
    mismatch: string | null;
    resolved: number;
  }[];
  return {
    checked: rows.length,
    // By code: the order a manager looks them up in.
    mismatches: rows.flatMap((row) => (row.mismatch ? [Mismatch.parse(JSON.parse(row.mismatch))] : [])).sort((a, b) => a.voucherCode.localeCompare(b.voucherCode)),
    resolved: rows.reduce((total, row) => total + row.resolved, 0),
  };
}

/** The attempt a row belongs to, as the ledger told it. */
function attemptFactsOf(row: SqlRow): AttemptFacts {
  return AttemptFacts.parse(rowOf(row));
}
