import type Database from 'better-sqlite3';
import { silentLogger, type Logger } from '../logging/logger.std.ts';
import type { KioskConfig } from '../../common/config-schema.std.ts';
import { dataFiles } from '../paths/data-files.node.ts';
import { kioskIdOf } from '../fleet/fleet-service.node.ts';
import { businessDayOf, localTimeOf, type BusinessDayRule } from './business-day.std.ts';
import { openLedgerDb, openLedgerDbToRead } from './ledger-db.node.ts';
import { LedgerEntry, ENDING_KINDS } from './ledger-events.std.ts';
import { LedgerRow, ShiftReport, type LedgerKind, type Mismatch, type Reconciliation, type SlipRecord, type Tally, type ZSummary } from '../../common/report-views.std.ts';
import * as reconciliationRows from './reconciliation-rows.std.ts';
import * as slipRows from './slip-rows.std.ts';
import { newProofCode } from './proof-code.std.ts';
import { rowOf, type SqlRow } from './ledger-rows.std.ts';
import type { VoucherFacts } from './voucher-check.std.ts';

/**
 * The redemption ledger: every event of every redemption this kiosk made, in SQLite
 * (ledger-db.node.ts), append only, grouped in shifts that a Z report closes. A row is on disk
 * when record() returns. When rows cannot be written (a full disk, a read-only or unopenable
 * file), the ledger says so in status() and record() throws LedgerUnavailable: the kiosk refuses
 * new redemptions rather than make one it cannot record.
 */

export interface LedgerOptions {
  file: string;
  logger: Logger;
  now?: () => number;
  kioskId: () => string | null;
  shopUuid: () => string | null;
  businessDay: () => BusinessDayRule;
  /** Closed shifts whose rows are older than this are pruned (their Z totals stay). */
  retentionDays: () => number;
  /** The platform's out-of-service time counted so far (ServiceHealth), for the shift's minutes. */
  outOfServiceMs?: () => number;
  /** Opened to read only (kioskctl, the doctor, beside a running kiosk): every write throws LedgerUnavailable. */
  readOnly?: boolean;
}

export interface LedgerStatus {
  writable: boolean;
  /** Why rows cannot be written; null when they can. */
  problem: string | null;
  /** Where a damaged ledger file was kept at this start; null when none was. */
  setAsideTo: string | null;
  /** The open shift; null when the ledger could not be opened. */
  shift: number | null;
  /** When the open shift opened (ISO 8601); null with no open shift. */
  shiftOpenedAt: string | null;
  /** Mismatches in the newest finished reconciliation, and closed shifts still waiting for theirs. */
  reconciliation: { mismatches: number; unreconciledShifts: number };
}

/** No ledger row can be written: nothing was sent, and no redemption may start. */
export class LedgerUnavailable extends Error {
  override readonly name = 'LedgerUnavailable';
  /** The bridge passes this on as its error code. */
  readonly kind = 'ledger_unavailable';
}

export interface Ledger {
  status(): LedgerStatus;
  /** Throws LedgerUnavailable unless rows can be written (a kiosk that could not tries again first). */
  assertWritable(): void;
  /** Writes the row; it is on disk when this returns. An attempt's ending is written once, however often it is told. */
  record(entry: LedgerEntry): LedgerRow | null;
  /** The open shift's totals so far. */
  xReport(): ShiftReport;
  /** Closes the open shift with its Z, and opens the next. */
  closeShift(): ShiftReport;
  /** Told each Z as it is closed (its reconciliation then starts). */
  onShiftClosed(listener: (z: ShiftReport) => void): () => void;
  zReports(): ZSummary[];
  zReport(zNumber: number): ShiftReport | null;
  /** Every row of the voucher code, oldest first: the manager's answer to "the kiosk took my voucher". */
  rowsForCode(code: string): LedgerRow[];
  /** Every row of the attempt whose redemption has this proof code, oldest first; none for a proof this kiosk never made. */
  rowsForProof(proofCode: string): LedgerRow[];
  /** The attempt's `redeemed` row (with its proof code), or null. */
  redeemedRowOf(attemptId: string): LedgerRow | null;
  /** Records a slip of a redemption (#31 §3): printed, not printed, or a preview. */
  recordSlip(slip: Omit<SlipRecord, 'at'>): SlipRecord;
  /** The slips of a proof code, oldest first: the first, and each reprint. */
  slipsOf(proofCode: string): SlipRecord[];
  /** The rows of a shift, or of the business days from..to (inclusive), oldest first. */
  rows(range: { shift: number } | { fromDay: string; toDay: string }): LedgerRow[];
  /** Deletes the rows of closed shifts older than the retention; answers how many. */
  prune(): number;
  /** Closed shifts not yet reconciled with the platform, oldest first. */
  shiftsToReconcile(): number[];
  /** The vouchers of `shift` still to check against the platform; open attempts of vouchers `held` names are the lock journal's to settle. */
  vouchersToCheck(shift: number, held: ReadonlySet<string>): VoucherFacts[];
  /** Keeps what a closed shift's check of one voucher found. */
  recordCheck(shift: number, check: { voucherUuid: string; mismatch: Mismatch | null; resolved: number }): void;
  /** Keeps a closed shift's reconciliation, every voucher checked, beside its Z. */
  finishReconciliation(shift: number): Reconciliation;
  close(): void;
}

const RETRY_WRITABLE_MS = 10_000;
const DAY_MS = 24 * 60 * 60 * 1000;

export function openLedger(options: LedgerOptions): Ledger {
  return new SqliteLedger(options);
}

/**
 * The kiosk's ledger in its data folder, its rows stamped as its settings say: the kiosk id, the
 * shop (`shopUuid`, when the kiosk knows better than its settings: demo mode's sandbox shop), the
 * business day and the retention.
 */
export function openKioskLedger(
  dataDir: string,
  { config, logger, shopUuid, outOfServiceMs }: { config: () => KioskConfig; logger: Logger; shopUuid?: () => string | null; outOfServiceMs?: () => number },
): Ledger {
  return openLedger({
    file: dataFiles(dataDir).ledger,
    logger,
    kioskId: () => kioskIdOf(config()),
    shopUuid: shopUuid ?? (() => config().api.shopUuid),
    businessDay: () => ({ startsAt: config().ledger.businessDayStartsAt }),
    retentionDays: () => config().ledger.retentionDays,
    ...(outOfServiceMs && { outOfServiceMs }),
  });
}

/**
 * The ledger file opened to read it only (reports, the doctor), beside a kiosk that may be
 * writing it; its X reports name the kiosk and shop `names` gives. Throws when it is missing,
 * damaged or of another schema.
 */
export function openLedgerToRead(file: string, names: { kioskId?: string | null; shopUuid?: string | null } = {}): Ledger {
  return new SqliteLedger({
    file,
    logger: silentLogger,
    kioskId: () => names.kioskId ?? null,
    shopUuid: () => names.shopUuid ?? null,
    // Nothing is written: no row is stamped with a day, nothing pruned.
    businessDay: () => ({ startsAt: '00:00' }),
    retentionDays: () => 1,
    readOnly: true,
  });
}

class SqliteLedger implements Ledger {
  readonly #options: LedgerOptions;
  readonly #now: () => number;
  readonly #log: Logger;
  #db: Database.Database | null = null;
  #setAsideTo: string | null = null;
  #problem: string | null = null;
  #lastProbeAt = 0;
  readonly #shiftClosed = new Set<(z: ShiftReport) => void>();

  constructor(options: LedgerOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#log = options.logger.child({ part: 'ledger' });
    if (options.readOnly) {
      this.#db = openLedgerDbToRead(options.file);
      this.#problem = 'opened to read only';
      return;
    }
    try {
      ({ db: this.#db, setAsideTo: this.#setAsideTo } = openLedgerDb(options.file, { logger: this.#log, now: this.#now }));
    } catch (error) {
      this.#problem = `the ledger could not be opened: ${String(error)}`;
      this.#log.error('ledger unavailable: no redemption until it can be written', { event: 'ledger.unavailable', error: String(error) });
      return;
    }
    try {
      this.#writing((handle) => this.#openShift(handle));
    } catch {
      // Said in the log and the status; the rows already there can still be read.
    }
  }

  status(): LedgerStatus {
    let shift: ShiftRow | undefined;
    let reconciliation = { mismatches: 0, unreconciledShifts: 0 };
    try {
      shift = this.#db ? currentShift(this.#db) : undefined;
      if (this.#db) reconciliation = reconciliationRows.reconciliationHealth(this.#db);
    } catch {
      // A status is asked by health and the doctor: it never throws.
    }
    const writable = this.#db !== null && this.#problem === null;
    return { writable, problem: this.#problem, setAsideTo: this.#setAsideTo, shift: shift?.number ?? null, shiftOpenedAt: shift?.opened_at ?? null, reconciliation };
  }

  assertWritable(): void {
    if (!this.#problem) return void this.#open();
    if (!this.#db || this.#options.readOnly || this.#now() - this.#lastProbeAt < RETRY_WRITABLE_MS) throw this.#unavailable();
    this.#lastProbeAt = this.#now();
    this.#writing((handle) => {
      // A committed write, undone in the same breath: the disk takes commits again.
      handle.prepare('INSERT INTO write_probe (at) VALUES (?)').run(this.#iso());
      handle.prepare('DELETE FROM write_probe').run();
    });
  }

  record(input: LedgerEntry): LedgerRow | null {
    const entry = LedgerEntry.parse(input);
    return this.#writing((handle) => {
      const at = this.#now();
      const rule = this.#options.businessDay();
      const row: SqlRow = {
        kind: entry.kind,
        attempt_id: entry.attempt.attemptId,
        shift: this.#openShift(handle).number,
        at: new Date(at).toISOString(),
        local_at: localTimeOf(at, rule.timeZone),
        business_day: businessDayOf(at, rule),
        kiosk_id: this.#options.kioskId(),
        shop_uuid: this.#options.shopUuid(),
        voucher_uuid: entry.attempt.voucherUuid,
        voucher_code: entry.attempt.voucherCode,
        voucher_name: entry.attempt.voucherName,
        promotion_name: entry.attempt.promotionName,
        contact_uuid: entry.attempt.contactUuid,
        identified_by: entry.attempt.identifiedBy,
        reason: entry.reason,
        platform_code: entry.platformCode,
        redemption_uuid: entry.redemptionUuid,
        redeemed_at: entry.redeemedAt,
        settled_by: entry.settledBy,
        proof_code: entry.kind === 'redeemed' ? unusedProofCode(handle) : null,
      };
      const columns = Object.keys(row);
      const insert = `INSERT OR IGNORE INTO events (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`;
      const { changes, lastInsertRowid } = handle.prepare(insert).run(row);
      return changes === 0 ? null : rowOf({ seq: Number(lastInsertRowid), ...row });
    });
  }

  xReport(): ShiftReport {
    const handle = this.#open();
    return handle.transaction(() => {
      // A ledger that could not open its first shift reports an empty one.
      const shift = currentShift(handle) ?? { number: 1, opened_at: this.#iso(), out_of_service_ms_at_open: 0 };
      return this.#report(handle, 'x', shift, this.#iso(), null);
    })();
  }

  closeShift(): ShiftReport {
    const z = this.#writing((handle) => {
      const shift = this.#openShift(handle);
      const zNumber = ((handle.prepare('SELECT max(z_number) AS last FROM shifts').get() as { last: number | null }).last ?? 0) + 1;
      const closedAt = this.#iso();
      const z = this.#report(handle, 'z', shift, closedAt, zNumber);
      handle.prepare('UPDATE shifts SET closed_at = ?, z_number = ?, z_report = ? WHERE number = ?').run(closedAt, zNumber, JSON.stringify(z), shift.number);
      handle.prepare('INSERT INTO shifts (opened_at, out_of_service_ms_at_open) VALUES (?, ?)').run(closedAt, this.#options.outOfServiceMs?.() ?? 0);
      this.#log.info('shift closed with a Z report', { event: 'ledger.z_closed', zNumber, shift: shift.number, redemptions: z.redemptions });
      return { ...z, reconciliation: reconciliationRows.reconciliationOf(handle, shift.number) };
    });
    for (const listener of this.#shiftClosed) listener(z);
    return z;
  }

  onShiftClosed(listener: (z: ShiftReport) => void): () => void {
    this.#shiftClosed.add(listener);
    return () => this.#shiftClosed.delete(listener);
  }

  zReports(): ZSummary[] {
    const rows = this.#open().prepare('SELECT z_report FROM shifts WHERE z_number IS NOT NULL ORDER BY z_number').all() as { z_report: string }[];
    return rows.map(({ z_report }) => {
      const { zNumber, shift, openedAt, closedAt, redemptions } = ShiftReport.parse(JSON.parse(z_report));
      return { zNumber, shift, openedAt, closedAt, redemptions };
    });
  }

  zReport(zNumber: number): ShiftReport | null {
    const handle = this.#open();
    const row = handle.prepare('SELECT z_report FROM shifts WHERE z_number = ?').get(zNumber) as { z_report: string } | undefined;
    if (!row) return null;
    const z = ShiftReport.parse(JSON.parse(row.z_report));
    // The Z as it was closed, with its check against the platform beside it.
    return { ...z, reconciliation: reconciliationRows.reconciliationOf(handle, z.shift) };
  }

  rowsForCode(code: string): LedgerRow[] {
    return (this.#open().prepare('SELECT * FROM events WHERE voucher_code = ? ORDER BY seq').all(code) as SqlRow[]).map(rowOf);
  }

  rowsForProof(proofCode: string): LedgerRow[] {
    const attempt = 'SELECT attempt_id FROM events WHERE proof_code = ?';
    return (this.#open().prepare(`SELECT * FROM events WHERE attempt_id IN (${attempt}) ORDER BY seq`).all(proofCode) as SqlRow[]).map(rowOf);
  }

  redeemedRowOf(attemptId: string): LedgerRow | null {
    const row = this.#open().prepare("SELECT * FROM events WHERE attempt_id = ? AND kind = 'redeemed'").get(attemptId) as SqlRow | undefined;
    return row ? rowOf(row) : null;
  }

  recordSlip(slip: Omit<SlipRecord, 'at'>): SlipRecord {
    const record = { ...slip, at: this.#iso() };
    this.#writing((handle) => slipRows.recordSlip(handle, record));
    return record;
  }

  slipsOf(proofCode: string): SlipRecord[] {
    return slipRows.slipsOf(this.#open(), proofCode);
  }

  rows(range: { shift: number } | { fromDay: string; toDay: string }): LedgerRow[] {
    const handle = this.#open();
    const found =
      'shift' in range
        ? handle.prepare('SELECT * FROM events WHERE shift = ? ORDER BY seq').all(range.shift)
        : handle.prepare('SELECT * FROM events WHERE business_day BETWEEN ? AND ? ORDER BY seq').all(range.fromDay, range.toDay);
    return (found as SqlRow[]).map(rowOf);
  }

  prune(): number {
    const before = new Date(this.#now() - this.#options.retentionDays() * DAY_MS).toISOString();
    const prune = 'DELETE FROM events WHERE shift IN (SELECT number FROM shifts WHERE closed_at IS NOT NULL AND closed_at < ?)';
    const deleted = this.#writing((handle) => {
      const rows = handle.prepare(prune).run(before).changes;
      slipRows.pruneSlips(handle);
      return rows;
    });
    if (deleted > 0) this.#log.info('ledger rows of old closed shifts pruned; their Z totals stay', { event: 'ledger.pruned', rows: deleted, closedBefore: before });
    return deleted;
  }

  shiftsToReconcile(): number[] {
    return reconciliationRows.shiftsToReconcile(this.#open());
  }

  vouchersToCheck(shift: number, held: ReadonlySet<string>): VoucherFacts[] {
    return reconciliationRows.vouchersToCheck(this.#open(), shift, held);
  }

  recordCheck(shift: number, check: { voucherUuid: string; mismatch: Mismatch | null; resolved: number }): void {
    this.#writing((handle) => reconciliationRows.recordCheck(handle, shift, { ...check, at: this.#iso() }));
  }

  finishReconciliation(shift: number): Reconciliation {
    return this.#writing((handle) => reconciliationRows.finishReconciliation(handle, shift, this.#iso()));
  }

  close(): void {
    this.#db?.close();
    this.#db = null;
    this.#problem ??= 'the ledger is closed';
  }

  #iso(): string {
    return new Date(this.#now()).toISOString();
  }

  #unavailable(): LedgerUnavailable {
    return new LedgerUnavailable(this.#problem ?? 'the ledger is closed');
  }

  #open(): Database.Database {
    if (!this.#db) throw this.#unavailable();
    return this.#db;
  }

  /** Runs a write in one transaction; a storage failure marks the ledger unwritable and is thrown as LedgerUnavailable. */
  #writing<T>(write: (handle: Database.Database) => T): T {
    if (this.#options.readOnly) throw this.#unavailable();
    const handle = this.#open();
    try {
      const result = handle.transaction(() => write(handle)).immediate();
      if (this.#problem) this.#log.info('ledger writable again', { event: 'ledger.writable' });
      this.#problem = null;
      return result;
    } catch (error) {
      if (!isStorageFailure(error)) throw error;
      if (!this.#problem) this.#log.error('ledger cannot be written: no redemption until it can', { event: 'ledger.unwritable', error: String(error) });
      this.#problem = `the ledger cannot be written: ${(error as Error).message}`;
      this.#lastProbeAt = this.#now();
      throw new LedgerUnavailable(this.#problem);
    }
  }

  /** The open shift; the first one is opened on the ledger's first write. */
  #openShift(handle: Database.Database): ShiftRow {
    const shift = currentShift(handle);
    if (shift) return shift;
    const opened = { opened_at: this.#iso(), out_of_service_ms_at_open: this.#options.outOfServiceMs?.() ?? 0 };
    const { lastInsertRowid } = handle.prepare('INSERT INTO shifts (opened_at, out_of_service_ms_at_open) VALUES (@opened_at, @out_of_service_ms_at_open)').run(opened);
    return { number: Number(lastInsertRowid), ...opened };
  }

  #report(handle: Database.Database, kind: 'x' | 'z', shift: ShiftRow, closedAt: string, zNumber: number | null): ShiftReport {
    const total = this.#options.outOfServiceMs?.() ?? 0;
    // Counters started anew (a reset): all they hold belongs to this shift.
    const outOfServiceMs = total >= shift.out_of_service_ms_at_open ? total - shift.out_of_service_ms_at_open : total;
    return ShiftReport.parse({
      kind,
      shift: shift.number,
      zNumber,
      openedAt: shift.opened_at,
      closedAt,
      kioskId: this.#options.kioskId(),
      shopUuid: this.#options.shopUuid(),
      ...shiftTotals(handle, shift.number),
      outOfServiceMinutes: Math.floor(outOfServiceMs / 60_000),
    });
  }
}

interface ShiftRow {
  number: number;
  opened_at: string;
  out_of_service_ms_at_open: number;
}

function currentShift(handle: Database.Database): ShiftRow | undefined {
  return handle.prepare('SELECT number, opened_at, out_of_service_ms_at_open FROM shifts WHERE closed_at IS NULL ORDER BY number DESC LIMIT 1').get() as ShiftRow | undefined;
}

/** A proof code no row has yet (a clash is one in a billion per row: drawn again). */
function unusedProofCode(handle: Database.Database): string {
  const taken = handle.prepare('SELECT 1 FROM events WHERE proof_code = ?');
  let code = newProofCode();
  while (taken.get(code)) code = newProofCode();
  return code;
}

/** The counts of a shift's rows, by SQL over its index: an X over 100,000 rows stays quick. */
function shiftTotals(handle: Database.Database, shift: number) {
  const tally = (column: string, kinds: readonly LedgerKind[]): Tally[] =>
    handle
      .prepare(`SELECT ${column} AS name, count(*) AS count FROM events WHERE shift = ? AND kind IN (${kinds.map(() => '?').join(', ')}) GROUP BY ${column} ORDER BY count DESC, name`)
      .all(shift, ...kinds) as Tally[];
  const redeemed = handle.prepare("SELECT count(*) AS count, min(at) AS first, max(at) AS last FROM events WHERE shift = ? AND kind = 'redeemed'").get(shift) as {
    count: number;
    first: string | null;
    last: string | null;
  };
  const endings = handle
    .prepare(
      `SELECT kind, count(*) AS count FROM events WHERE shift = ? AND kind IN (${ENDING_KINDS.map(() => '?').join(', ')})
       AND attempt_id IN (SELECT attempt_id FROM events WHERE shift = ? AND kind = 'unsettled') GROUP BY kind`,
    )
    .all(shift, ...ENDING_KINDS, shift) as { kind: LedgerKind; count: number }[];
  const attempts = (handle.prepare("SELECT count(DISTINCT attempt_id) AS count FROM events WHERE shift = ? AND kind = 'unsettled'").get(shift) as { count: number }).count;
  const ended = (kind: LedgerKind) => endings.find((ending) => ending.kind === kind)?.count ?? 0;
  const settledRedeemed = ended('redeemed');
  const settledReleased = ended('released') + ended('lock_lost');
  return {
    redemptions: redeemed.count,
    byPromotion: tally('promotion_name', ['redeemed']),
    byVoucher: tally('voucher_name', ['redeemed']),
    releases: tally("CASE kind WHEN 'lock_lost' THEN 'lock_lost' ELSE reason END", ['released', 'lock_lost']),
    refusals: tally('platform_code', ['refused']),
    unsettled: { attempts, redeemed: settledRedeemed, released: settledReleased, open: Math.max(0, attempts - settledRedeemed - settledReleased) },
    firstRedemptionAt: redeemed.first,
    lastRedemptionAt: redeemed.last,
  };
}

/** A failure of the storage under the ledger (full, read-only, I/O, locked), not of the code. */
function isStorageFailure(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^SQLITE_(FULL|READONLY|IOERR|CANTOPEN|BUSY|LOCKED|CORRUPT|NOTADB|PERM)/.test(code);
}
