import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasEvent, ledgerAttempt, recordingLogger } from '../../test/support/factories.std.ts';
import { LedgerUnavailable, openLedger, type Ledger } from './ledger.node.ts';

/**
 * The ledger on a real small filesystem (tmpfs, mounted for the test: the suite runs as root)
 * that fills up, and that is remounted read-only: real ENOSPC and EROFS.
 */

let mountPoint: string;
let clock: { now: number };
let ledger: Ledger | undefined;

const mount = (...args: string[]) => execFileSync('mount', args, { stdio: 'pipe' });

beforeEach(() => {
  mountPoint = mkdtempSync(path.join(tmpdir(), 'ledger-disk-'));
  mount('-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', mountPoint);
  clock = { now: Date.parse('2026-11-27T10:00:00Z') };
});

afterEach(() => {
  ledger?.close();
  ledger = undefined;
  execFileSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

function open() {
  const { logger, lines } = recordingLogger();
  ledger = openLedger({
    file: path.join(mountPoint, 'ledger.sqlite'),
    logger,
    now: () => clock.now,
    kioskId: () => 'kiosk-7',
    shopUuid: () => 'shop-1',
    businessDay: () => ({ startsAt: '04:00', timeZone: 'UTC' }),
    retentionDays: () => 400,
  });
  return { ledger, lines };
}

/** Fills the filesystem to its last byte with a file of its own. */
function fillDisk(): string {
  const filler = path.join(mountPoint, 'filler');
  const chunk = Buffer.alloc(4096, 1);
  const fd = fs.openSync(filler, 'w');
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    fs.closeSync(fd);
  }
  return filler;
}

describe('a ledger whose disk gives way', () => {
  it('on a full disk: refuses rows and says why, keeps every row it had, and takes rows again once there is room', () => {
    const { ledger, lines } = open();
    const attempt = ledgerAttempt('BEFORE');
    ledger.record({ kind: 'locked', attempt });
    ledger.record({ kind: 'redeemed', attempt, settledBy: 'redeem' });
    const filler = fillDisk();

    // Rows far bigger than a page, until the WAL needs a page the disk no longer has.
    const big = (index: number) => ledgerAttempt(`FULL-${index}`, { voucherName: 'x'.repeat(8000) });
    let failure: unknown;
    for (let index = 0; index < 200 && !failure; index++) {
      try {
        ledger.record({ kind: 'locked', attempt: big(index) });
      } catch (error) {
        failure = error;
      }
    }
    expect(failure).toBeInstanceOf(LedgerUnavailable);
    expect(ledger.status()).toMatchObject({ writable: false, problem: expect.stringMatching(/full/i) });
    expect(() => ledger.assertWritable()).toThrow(LedgerUnavailable);
    expect(hasEvent(lines, 'ledger.unwritable')).toBe(true);
    expect(ledger.rowsForCode('BEFORE').map((row) => row.kind)).toEqual(['locked', 'redeemed']);

    fs.rmSync(filler);
    // Tried again only after a while: a kiosk asked at every tap does not hammer a failing disk.
    expect(() => ledger.assertWritable()).toThrow(LedgerUnavailable);
    clock.now += 10_000;
    expect(() => ledger.assertWritable()).not.toThrow();
    expect(ledger.status().writable).toBe(true);
    expect(hasEvent(lines, 'ledger.writable')).toBe(true);
    expect(ledger.record({ kind: 'locked', attempt: ledgerAttempt('AFTER') })).not.toBeNull();
  });

  it('on a read-only disk: says it cannot be written, refuses rows, and leaves the file as it was', () => {
    const first = open();
    const attempt = ledgerAttempt('KEPT');
    first.ledger.record({ kind: 'locked', attempt });
    first.ledger.record({ kind: 'redeemed', attempt, settledBy: 'redeem' });
    first.ledger.close();
    const file = path.join(mountPoint, 'ledger.sqlite');
    const before = fs.readFileSync(file);
    mount('-o', 'remount,ro', mountPoint);
    try {
      const { ledger, lines } = open();
      expect(ledger.status()).toMatchObject({ writable: false, problem: expect.stringMatching(/could not be opened/) });
      expect(() => ledger.assertWritable()).toThrow(LedgerUnavailable);
      expect(() => ledger.record({ kind: 'locked', attempt: ledgerAttempt('REFUSED') })).toThrow(LedgerUnavailable);
      expect(hasEvent(lines, 'ledger.unavailable')).toBe(true);
      expect(fs.readFileSync(file).equals(before)).toBe(true);
    } finally {
      ledger?.close();
      mount('-o', 'remount,rw', mountPoint);
    }
  });
});
