import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeFolderReadOnly } from '../../test/support/read-only-folder.node.ts';
import { EXIT } from '../process/exit-codes.std.ts';
import { StartupError } from '../process/startup-error.std.ts';
import { claimDataDir, dataDirHolder, lockDataDir, type DataDirLock } from './data-dir-lock.node.ts';
import { DATA_FILES } from './data-files.node.ts';
import { ensurePrivateDataDir } from './data-dir.node.ts';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-lock-'));
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;
const held: DataDirLock[] = [];
afterEach(() => {
  for (const lock of held.splice(0)) lock.release();
});
const lock = (dir: string) => {
  const taken = lockDataDir(dir);
  held.push(taken);
  return taken;
};

/** A pid that no process has any more: a child that has exited. */
const deadPid = () => Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }));
const bootId = () => fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
const writeLock = (dir: string, record: object) => fs.writeFileSync(path.join(dir, DATA_FILES.lock), JSON.stringify(record));

describe('ensurePrivateDataDir', () => {
  it('creates the folder for its owner only (0700) and takes group and other access from an older one', () => {
    const fresh = path.join(tempDir(), 'a', 'Loyalty Kiosk');
    ensurePrivateDataDir(fresh);
    expect(modeOf(fresh)).toBe(0o700);
    const older = tempDir();
    fs.chmodSync(older, 0o755);
    ensurePrivateDataDir(older);
    expect(modeOf(older)).toBe(0o700);
    // The owner's own bits are not its to widen: a folder made read-only stays so.
    fs.chmodSync(older, 0o555);
    ensurePrivateDataDir(older);
    expect(modeOf(older)).toBe(0o500);
  });
});

describe('lockDataDir', () => {
  it('refuses a second kiosk on a folder while the first holds it, and lets one in once it is released', () => {
    const dir = tempDir();
    const first = lock(dir);
    expect(() => lockDataDir(dir)).toThrow(StartupError);
    try {
      lockDataDir(dir);
    } catch (error) {
      expect((error as StartupError).exitCode).toBe(EXIT.alreadyRunning);
      expect((error as StartupError).message).toBe(`another kiosk (process ${process.pid}) is already running on the data folder ${dir}; stop it first`);
    }
    first.release();
    expect(fs.readdirSync(dir)).toEqual([]);
    lock(dir);
    expect(fs.readdirSync(dir)).toEqual([DATA_FILES.lock]);
  });

  it('takes over a lock whose process is gone, one from before a reboot, and one that is unreadable', () => {
    for (const stale of [
      { pid: deadPid(), boot: bootId(), started: null, nonce: 'killed' },
      { pid: process.pid, boot: 'an-earlier-boot', started: null, nonce: 'rebooted' },
      { pid: process.pid, boot: bootId(), started: '1', nonce: 'pid-reused' },
    ]) {
      const dir = tempDir();
      writeLock(dir, stale);
      lock(dir);
      expect(JSON.parse(fs.readFileSync(path.join(dir, DATA_FILES.lock), 'utf8')).pid).toBe(process.pid);
      expect(fs.readdirSync(dir)).toEqual([DATA_FILES.lock]);
    }
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, DATA_FILES.lock), '');
    lock(dir);
  });

  it('a release never removes a lock another kiosk took over meanwhile', () => {
    const dir = tempDir();
    const first = lockDataDir(dir);
    const other = { pid: process.pid, boot: bootId(), started: null, nonce: 'someone-else' };
    writeLock(dir, other);
    first.release();
    expect(JSON.parse(fs.readFileSync(path.join(dir, DATA_FILES.lock), 'utf8'))).toEqual(other);
  });
});

describe('claimDataDir', () => {
  it('says in one line that a read-only folder cannot be written (exit code 78), and leaves it as it was', () => {
    const dir = tempDir();
    const restore = makeFolderReadOnly(dir);
    try {
      expect(() => claimDataDir(dir)).toThrow(StartupError);
      try {
        claimDataDir(dir);
      } catch (error) {
        expect((error as StartupError).exitCode).toBe(EXIT.config);
        expect((error as StartupError).message).toMatch(new RegExp(`^the data folder ${dir} cannot be written \\((EPERM|EACCES)\\)`));
      }
    } finally {
      restore();
    }
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('dataDirHolder', () => {
  it('names the running kiosk that holds the folder, and no one for a free folder or a lock whose process is gone', () => {
    const dir = tempDir();
    expect(dataDirHolder(dir)).toBeNull();
    const taken = lock(dir);
    expect(dataDirHolder(dir)).toBe(process.pid);
    taken.release();
    writeLock(dir, { pid: deadPid(), boot: bootId(), started: null, nonce: 'left-behind' });
    expect(dataDirHolder(dir)).toBeNull();
    // It only looks: the stale lock is still there for the next kiosk to take over.
    expect(fs.existsSync(path.join(dir, DATA_FILES.lock))).toBe(true);
  });
});
