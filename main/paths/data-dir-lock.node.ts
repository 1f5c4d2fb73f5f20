import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { EXIT } from '../process/exit-codes.std.ts';
import { StartupError } from '../process/startup-error.std.ts';
import { ensurePrivateDataDir, folderWriteFailure } from './data-dir.node.ts';
import { dataFiles } from './data-files.node.ts';

/** Who holds a data folder: enough to tell a running kiosk from one a crash or power cut left behind. */
interface LockRecord {
  pid: number;
  /** Which boot of the machine: after a reboot every pid names another process. */
  boot: string;
  /** When the process started (Linux): a pid reused within one boot is not the holder. */
  started: string | null;
  /** This lock, not another with the same pid: only its own holder removes it. */
  nonce: string;
}

export interface DataDirLock {
  release(): void;
}

/**
 * One kiosk per data folder. Node has no flock, so the lock is a file made atomically (a complete
 * temp file hard-linked into place: it exists whole or not at all) naming the process that holds it.
 * A lock whose process is gone (SIGKILL, power cut) is taken over. Throws StartupError when a
 * running kiosk holds the folder.
 */
export function lockDataDir(dir: string): DataDirLock {
  const file = dataFiles(dir).lock;
  const own: LockRecord = { pid: process.pid, boot: bootId(), started: processStartTime(process.pid), nonce: crypto.randomUUID() };
  const text = JSON.stringify(own);
  // Three tries: a stale lock is removed between them; a live one ends them at once.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (createLockFile(file, text)) return heldLock(file, own.nonce);
    const seen = readText(file);
    if (seen === null) continue;
    const holder = parseRecord(seen);
    if (holder && isRunning(holder)) {
      throw new StartupError(`another kiosk (process ${holder.pid}) is already running on the data folder ${dir}; stop it first`, EXIT.alreadyRunning);
    }
    removeStaleLock(file, seen);
  }
  throw new StartupError(`another kiosk is starting on the data folder ${dir} at the same moment`, EXIT.alreadyRunning);
}

/**
 * The process of a running kiosk that holds `dir`, or null: none does, or the lock is one a crash
 * or power cut left behind. Only looks: takes, moves and removes nothing.
 */
export function dataDirHolder(dir: string): number | null {
  let text: string | null;
  try {
    text = readText(dataFiles(dir).lock);
  } catch {
    return null;
  }
  const holder = text === null ? null : parseRecord(text);
  return holder && isRunning(holder) ? holder.pid : null;
}

function createLockFile(file: string, text: string): boolean {
  const temp = `${file}.${process.pid}.${crypto.randomUUID()}`;
  const fd = fs.openSync(temp, 'wx', 0o600);
  try {
    fs.writeFileSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/**
 * Moves the stale lock out of the way under a name of its own, then checks it was the one judged
 * stale: if another starting kiosk took the folder over meanwhile, its fresh lock is put back.
 */
function removeStaleLock(file: string, staleText: string) {
  const moved = `${file}.stale-${process.pid}-${crypto.randomUUID()}`;
  try {
    fs.renameSync(file, moved);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if (readText(moved) !== staleText) fs.linkSync(moved, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(moved, { force: true });
  }
}

function heldLock(file: string, nonce: string): DataDirLock {
  const release = () => {
    process.off('exit', release);
    // Only our own lock: never one a later kiosk took over.
    if (parseRecord(readText(file) ?? '')?.nonce === nonce) fs.rmSync(file, { force: true });
  };
  // A process that exits without closing its services still frees the folder.
  process.on('exit', release);
  return { release };
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function parseRecord(text: string): LockRecord | null {
  try {
    const record = JSON.parse(text) as Partial<LockRecord>;
    return Number.isInteger(record.pid) && typeof record.boot === 'string' && typeof record.nonce === 'string' ? (record as LockRecord) : null;
  } catch {
    return null;
  }
}

function isRunning(holder: LockRecord): boolean {
  if (!sameBoot(holder.boot, bootId())) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: alive, only not ours to signal.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return holder.started === null || processStartTime(holder.pid) === holder.started;
}

/** Linux names each boot; elsewhere the boot time, read to the second, stands in for it. */
function bootId(): string {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return `booted-at:${Math.round(Date.now() / 1000 - os.uptime())}`;
  }
}

function sameBoot(a: string, b: string): boolean {
  const bootedAt = (id: string) => (id.startsWith('booted-at:') ? Number(id.slice('booted-at:'.length)) : NaN);
  // Two readings of the boot time differ by rounding; a reboot moves it by far more.
  return a === b || Math.abs(bootedAt(a) - bootedAt(b)) <= 5;
}

/** Field 22 of /proc/<pid>/stat (start time in ticks since boot); null where there is no /proc. */
function processStartTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/**
 * The data folder made ready for one kiosk: created owner-only and locked. A folder that cannot
 * be written (read-only, someone else's, a file) is a StartupError with one line saying so.
 */
export function claimDataDir(dir: string): DataDirLock {
  try {
    ensurePrivateDataDir(dir);
    return lockDataDir(dir);
  } catch (error) {
    const code = folderWriteFailure(error);
    if (code === null) throw error;
    throw new StartupError(`the data folder ${dir} cannot be written (${code}): give the kiosk's user write access to it, or name another folder with --data`);
  }
}
