import fs from 'node:fs';
import Database from 'better-sqlite3';
import type { Logger } from '../logging/logger.std.ts';

/**
 * The ledger's SQLite file: opened in WAL mode with every commit synced (`synchronous=FULL`: a row
 * is on disk when its write returns), readable by the kiosk's user only, and brought to the
 * newest schema by MIGRATIONS. A file that is no SQLite database, or fails its integrity check, is
 * kept aside under a new name and a new ledger is started: the kiosk goes on recording, and the
 * old rows stay on disk for whoever must read them.
 */

/** Each migration takes the schema one version up; never edit one that has shipped, add the next. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE shifts (
     number INTEGER PRIMARY KEY,
     opened_at TEXT NOT NULL,
     -- The platform's out-of-service time counted so far when the shift opened (ServiceHealth).
     out_of_service_ms_at_open INTEGER NOT NULL DEFAULT 0,
     closed_at TEXT,
     z_number INTEGER UNIQUE,
     z_report TEXT
   );
   CREATE TABLE events (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     kind TEXT NOT NULL CHECK (kind IN ('locked', 'unsettled', 'refused', 'redeemed', 'released', 'lock_lost')),
     attempt_id TEXT NOT NULL,
     shift INTEGER NOT NULL REFERENCES shifts (number),
     at TEXT NOT NULL,
     local_at TEXT NOT NULL,
     business_day TEXT NOT NULL,
     kiosk_id TEXT,
     shop_uuid TEXT,
     voucher_uuid TEXT NOT NULL,
     voucher_code TEXT NOT NULL,
     voucher_name TEXT,
     promotion_name TEXT,
     contact_uuid TEXT,
     identified_by TEXT,
     reason TEXT,
     platform_code TEXT,
     redemption_uuid TEXT,
     redeemed_at TEXT,
     settled_by TEXT
   );
   -- A restart that settles an attempt again finds its ending already written.
   CREATE UNIQUE INDEX one_lock_per_attempt ON events (attempt_id) WHERE kind = 'locked';
   CREATE UNIQUE INDEX one_ending_per_attempt ON events (attempt_id) WHERE kind IN ('redeemed', 'released', 'lock_lost');
   CREATE INDEX events_by_shift ON events (shift, kind);
   CREATE INDEX events_by_code ON events (voucher_code);
   CREATE INDEX events_by_day ON events (business_day);
   CREATE TRIGGER events_never_change BEFORE UPDATE ON events
     BEGIN SELECT RAISE(ABORT, 'ledger rows are never changed; write a correcting row'); END;
   CREATE TRIGGER events_of_open_shifts_stay BEFORE DELETE ON events
     WHEN (SELECT closed_at FROM shifts WHERE number = OLD.shift) IS NULL
     BEGIN SELECT RAISE(ABORT, 'only whole closed shifts are pruned'); END;
   -- Written and rolled back by a write probe: whether the disk takes a commit again.
   CREATE TABLE write_probe (at TEXT NOT NULL);
   CREATE TRIGGER closed_shifts_never_change BEFORE UPDATE ON shifts WHEN OLD.closed_at IS NOT NULL
     BEGIN SELECT RAISE(ABORT, 'a closed shift and its Z never change'); END;`,
  // #30 §3: each closed shift's check against the platform, voucher by voucher so a restart goes on where it stopped.
  `CREATE TABLE reconciliation_checks (
     shift INTEGER NOT NULL REFERENCES shifts (number),
     voucher_uuid TEXT NOT NULL,
     checked_at TEXT NOT NULL,
     -- The Mismatch found (JSON); NULL when the platform agreed.
     mismatch TEXT,
     -- Attempts of this voucher the check found open and settled.
     resolved INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (shift, voucher_uuid)
   );
   CREATE TABLE reconciliations (
     shift INTEGER PRIMARY KEY REFERENCES shifts (number),
     finished_at TEXT NOT NULL,
     -- The Reconciliation (JSON), kept beside the Z like its totals.
     result TEXT NOT NULL
   );
   -- Each voucher's rows, for its check: quick over a shift of 100,000 rows.
   CREATE INDEX events_by_voucher ON events (voucher_uuid, kind);
   CREATE TRIGGER reconciliations_never_change BEFORE UPDATE ON reconciliations
     BEGIN SELECT RAISE(ABORT, 'a finished reconciliation never changes'); END;`,
  // #31 §1: each redemption's proof code, what the slip and the screen show the till.
  `ALTER TABLE events ADD COLUMN proof_code TEXT;
   CREATE UNIQUE INDEX events_by_proof ON events (proof_code) WHERE proof_code IS NOT NULL;`,
  // #31 §3: each slip printed (or not) for a redemption, reprints too.
  `CREATE TABLE slips (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     proof_code TEXT NOT NULL,
     redemption_seq INTEGER NOT NULL,
     at TEXT NOT NULL,
     duplicate INTEGER NOT NULL CHECK (duplicate IN (0, 1)),
     outcome TEXT NOT NULL CHECK (outcome IN ('printed', 'not_printed', 'preview')),
     reason TEXT,
     -- What the slip printed beside the ledger row, so a reprint is the same slip.
     card_last4 TEXT,
     pos_barcode TEXT
   );
   CREATE INDEX slips_by_proof ON slips (proof_code);
   CREATE TRIGGER slips_never_change BEFORE UPDATE ON slips
     BEGIN SELECT RAISE(ABORT, 'a slip on record never changes'); END;`,
];

export const LEDGER_SCHEMA_VERSION = MIGRATIONS.length;

export interface OpenedLedgerDb {
  db: Database.Database;
  /** Where a damaged file was moved, when one was. */
  setAsideTo: string | null;
}

/** A ledger file written by a newer kiosk: read by none of this version's code, never written. */
export class LedgerFromNewerVersion extends Error {
  override readonly name = 'LedgerFromNewerVersion';
}

/**
 * A ledger opened only to read it (kioskctl, the doctor), beside a kiosk that may be writing: WAL
 * lets both be. Nothing is changed, migrated or moved; a file that is not there, damaged, or of a
 * newer schema is an error.
 */
export function openLedgerDbToRead(file: string): Database.Database {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new DamagedLedger(`integrity check: ${String(check)}`);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > LEDGER_SCHEMA_VERSION) throw new LedgerFromNewerVersion(`the ledger has schema ${version}; this kiosk knows up to ${LEDGER_SCHEMA_VERSION}`);
    if (version < LEDGER_SCHEMA_VERSION) throw new Error(`the ledger has schema ${version}: the kiosk brings it up to ${LEDGER_SCHEMA_VERSION} when it next starts`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

export function openLedgerDb(file: string, { logger, now = Date.now }: { logger: Logger; now?: () => number }): OpenedLedgerDb {
  try {
    return { db: openChecked(file), setAsideTo: null };
  } catch (error) {
    if (!isDamaged(error)) throw error;
    const setAsideTo = `${file}.corrupt-${now()}`;
    for (const suffix of ['', '-wal', '-shm']) if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, setAsideTo + suffix);
    logger.error('ledger file damaged: kept aside, a new ledger started', { event: 'ledger.set_aside', movedTo: setAsideTo, error: String(error) });
    return { db: openChecked(file), setAsideTo };
  }
}

function openChecked(file: string): Database.Database {
  // Made empty with the kiosk user's rights alone: SQLite gives its -wal and -shm files the same.
  fs.closeSync(fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_RDWR | fs.constants.O_NOFOLLOW, 0o600));
  fs.chmodSync(file, 0o600);
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new DamagedLedger(`integrity check: ${String(check)}`);
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

function migrate(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > LEDGER_SCHEMA_VERSION) throw new LedgerFromNewerVersion(`the ledger has schema ${version}; this kiosk knows up to ${LEDGER_SCHEMA_VERSION}`);
  db.transaction(() => {
    for (const [index, sql] of MIGRATIONS.entries()) if (index >= version) db.exec(sql);
    db.pragma(`user_version = ${LEDGER_SCHEMA_VERSION}`);
  }).immediate();
}

class DamagedLedger extends Error {
  override readonly name = 'DamagedLedger';
}

/** What SQLite says of a file that is no database, or a damaged one. */
function isDamaged(error: unknown): boolean {
  if (error instanceof DamagedLedger) return true;
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT' || (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT'));
}
