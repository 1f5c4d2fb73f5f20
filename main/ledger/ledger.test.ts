import fs from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasEvent, ledgerAttempt, recordingLogger } from '../../test/support/factories.std.ts';
import { LEDGER_SCHEMA_VERSION } from './ledger-db.node.ts';
import { isProofCode } from './proof-code.std.ts';
import { LedgerUnavailable, openLedger, type Ledger, type LedgerOptions } from './ledger.node.ts';

let dir: string;
let file: string;
let clock: { now: number };
const opened: Ledger[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ledger-'));
  file = path.join(dir, 'ledger.sqlite');
  clock = { now: Date.parse('2026-11-27T10:00:00Z') };
});

afterEach(() => {
  for (const ledger of opened.splice(0)) ledger.close();
  rmSync(dir, { recursive: true, force: true });
});

function ledgerAt(target = file, overrides: Partial<LedgerOptions> = {}) {
  const { logger, lines } = recordingLogger();
  const ledger = openLedger({
    file: target,
    logger,
    now: () => clock.now,
    kioskId: () => 'kiosk-7',
    shopUuid: () => 'shop-1',
    businessDay: () => ({ startsAt: '04:00', timeZone: 'Europe/Amsterdam' }),
    retentionDays: () => 400,
    ...overrides,
  });
  opened.push(ledger);
  return { ledger, lines };
}

/** One redemption from lock to its end, `minutes` after the last. */
function redeemOnce(ledger: Ledger, code: string, { promotion = 'Coffee week', name = 'Free coffee' } = {}) {
  const attempt = ledgerAttempt(code, { promotionName: promotion, voucherName: name });
  ledger.record({ kind: 'locked', attempt });
  clock.now += 60_000;
  return ledger.record({ kind: 'redeemed', attempt, settledBy: 'redeem', redemptionUuid: `redemption-${code}`, redeemedAt: new Date(clock.now).toISOString() });
}

describe('the redemption ledger', () => {
  it('keeps each row on disk, stamped with the kiosk, shop, shift, UTC time and business day', () => {
    const { ledger } = ledgerAt();
    clock.now = Date.parse('2026-11-28T02:30:00Z'); // 03:30 in Amsterdam: still the 27th's business day
    const row = redeemOnce(ledger, 'COFFEE-1');
    ledger.close();

    const { ledger: reopened } = ledgerAt();
    expect(reopened.rowsForCode('COFFEE-1')).toEqual([
      expect.objectContaining({ seq: 1, kind: 'locked', shift: 1, at: '2026-11-28T02:30:00.000Z', businessDay: '2026-11-27', kioskId: 'kiosk-7', shopUuid: 'shop-1' }),
      { ...row, seq: 2 },
    ]);
    expect(row).toMatchObject({ kind: 'redeemed', redemptionUuid: 'redemption-COFFEE-1', voucherName: 'Free coffee', promotionName: 'Coffee week', identifiedBy: 'card' });
  });

  it('is a WAL database synced at every commit, readable by its owner only, at the newest schema', () => {
    ledgerAt();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const db = new Database(file, { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('user_version', { simple: true })).toBe(LEDGER_SCHEMA_VERSION);
    } finally {
      db.close();
    }
  });

  it('brings a ledger of the first schema up to the newest at its next start, its rows and Zs kept (#30 §3, #31 §1 and §3)', () => {
    const { ledger } = ledgerAt();
    redeemOnce(ledger, 'BEFORE-1');
    ledger.closeShift();
    ledger.close();
    // The file as the first release of the ledger left it: no reconciliation tables, schema 1.
    const db = new Database(file);
    db.exec(`DROP TRIGGER reconciliations_never_change; DROP TABLE reconciliations; DROP TABLE reconciliation_checks; DROP INDEX events_by_voucher;
      DROP INDEX events_by_proof; ALTER TABLE events DROP COLUMN proof_code; DROP TABLE slips`);
    db.pragma('user_version = 1');
    db.close();

    const { ledger: upgraded } = ledgerAt();
    expect(upgraded.status()).toMatchObject({ writable: true, reconciliation: { mismatches: 0, unreconciledShifts: 1 } });
    expect(upgraded.rowsForCode('BEFORE-1').map(({ kind, proofCode }) => [kind, proofCode])).toEqual([['locked', null], ['redeemed', null]]);
    expect(upgraded.zReport(1)).toMatchObject({ redemptions: 1, reconciliation: { state: 'pending', checked: 0, vouchers: 1 } });
  });

  it('gives each redemption an unguessable proof code, unique in the ledger, that finds the attempt (#31 §1)', () => {
    const { ledger } = ledgerAt();
    const first = redeemOnce(ledger, 'PROOF-1')!;
    const second = redeemOnce(ledger, 'PROOF-2')!;
    expect(isProofCode(first.proofCode!)).toBe(true);
    expect(second.proofCode).not.toBe(first.proofCode);
    expect(ledger.rowsForCode('PROOF-1').map(({ kind, proofCode }) => [kind, proofCode])).toEqual([['locked', null], ['redeemed', first.proofCode]]);
    expect(ledger.rowsForProof(first.proofCode!).map((row) => [row.kind, row.voucherCode])).toEqual([['locked', 'PROOF-1'], ['redeemed', 'PROOF-1']]);
    expect(ledger.redeemedRowOf(first.attemptId)).toEqual(first);
    expect(ledger.rowsForProof('0000005724')).toEqual([]);
    // Told the ending again (a restart): no second row, the first proof stands.
    expect(ledger.record({ kind: 'redeemed', attempt: ledgerAttempt('PROOF-1'), settledBy: 'find' })).toBeNull();
    expect(ledger.redeemedRowOf(first.attemptId)?.proofCode).toBe(first.proofCode);
  });

  it('writes an attempt’s ending once, however often a restart settles it again', () => {
    const { ledger } = ledgerAt();
    const attempt = ledgerAttempt('TWICE');
    expect(ledger.record({ kind: 'redeemed', attempt, settledBy: 'find' })).not.toBeNull();
    expect(ledger.record({ kind: 'redeemed', attempt, settledBy: 'find' })).toBeNull();
    expect(ledger.record({ kind: 'released', attempt, reason: 'startup' })).toBeNull();
    expect(ledger.rowsForCode('TWICE').map((row) => row.kind)).toEqual(['redeemed']);
  });

  it('never changes a row, nor deletes one of an open shift, whoever asks', () => {
    const { ledger } = ledgerAt();
    redeemOnce(ledger, 'KEPT');
    const db = new Database(file);
    try {
      expect(() => db.prepare("UPDATE events SET kind = 'released'").run()).toThrow(/never changed/);
      expect(() => db.prepare('DELETE FROM events').run()).toThrow(/closed shifts/);
    } finally {
      db.close();
    }
    expect(ledger.rowsForCode('KEPT')).toHaveLength(2);
  });

  it('X: the open shift’s totals, as often as asked, changing nothing', () => {
    const { ledger } = ledgerAt();
    redeemOnce(ledger, 'A');
    redeemOnce(ledger, 'B', { promotion: 'Tea week', name: 'Free tea' });
    redeemOnce(ledger, 'C');
    const cancelled = ledgerAttempt('D');
    ledger.record({ kind: 'locked', attempt: cancelled });
    ledger.record({ kind: 'released', attempt: cancelled, reason: 'cancel' });
    const refused = ledgerAttempt('E');
    ledger.record({ kind: 'refused', attempt: refused, platformCode: '80005' });
    const doubtful = ledgerAttempt('F');
    ledger.record({ kind: 'locked', attempt: doubtful });
    ledger.record({ kind: 'unsettled', attempt: doubtful, reason: 'timeout' });
    ledger.record({ kind: 'redeemed', attempt: doubtful, settledBy: 'find' });
    const open = ledgerAttempt('G');
    ledger.record({ kind: 'unsettled', attempt: open, reason: 'network' });

    const x = ledger.xReport();
    expect(x).toMatchObject({
      kind: 'x',
      shift: 1,
      zNumber: null,
      kioskId: 'kiosk-7',
      redemptions: 4,
      byPromotion: [
        { name: 'Coffee week', count: 3 },
        { name: 'Tea week', count: 1 },
      ],
      byVoucher: [
        { name: 'Free coffee', count: 3 },
        { name: 'Free tea', count: 1 },
      ],
      releases: [{ name: 'cancel', count: 1 }],
      refusals: [{ name: '80005', count: 1 }],
      unsettled: { attempts: 2, redeemed: 1, released: 0, open: 1 },
    });
    expect(ledger.xReport()).toEqual(x);
    expect(ledger.status().shift).toBe(1);
    expect(ledger.zReports()).toEqual([]);
  });

  it('Z: closes the shift for good under the next Z number, and opens the next shift', () => {
    const { ledger } = ledgerAt();
    redeemOnce(ledger, 'A');
    clock.now += 60_000;
    const first = ledger.closeShift();
    expect(first).toMatchObject({ kind: 'z', zNumber: 1, shift: 1, redemptions: 1, closedAt: new Date(clock.now).toISOString() });
    expect(ledger.xReport()).toMatchObject({ shift: 2, redemptions: 0, openedAt: first.closedAt });

    redeemOnce(ledger, 'B');
    redeemOnce(ledger, 'C');
    const second = ledger.closeShift();
    expect(second).toMatchObject({ zNumber: 2, shift: 2, redemptions: 2 });
    expect(ledger.zReports().map(({ zNumber, redemptions }) => ({ zNumber, redemptions }))).toEqual([
      { zNumber: 1, redemptions: 1 },
      { zNumber: 2, redemptions: 2 },
    ]);
    expect(ledger.zReport(1)).toEqual(first);

    const db = new Database(file);
    try {
      expect(() => db.prepare('UPDATE shifts SET z_report = NULL WHERE z_number = 1').run()).toThrow(/never change/);
    } finally {
      db.close();
    }
  });

  it('prunes the rows of closed shifts past the retention, keeping their Z totals and the open shift', () => {
    const { ledger, lines } = ledgerAt(file, { retentionDays: () => 30 });
    redeemOnce(ledger, 'OLD');
    ledger.closeShift();
    redeemOnce(ledger, 'OPEN');
    clock.now += 31 * 24 * 60 * 60 * 1000;
    expect(ledger.prune()).toBe(2);
    expect(ledger.rowsForCode('OLD')).toEqual([]);
    expect(ledger.rowsForCode('OPEN')).toHaveLength(2);
    expect(ledger.zReport(1)).toMatchObject({ redemptions: 1 });
    expect(hasEvent(lines, 'ledger.pruned', { rows: 2 })).toBe(true);
  });

  it('keeps a damaged file aside under a new name and starts a new ledger, saying so', () => {
    fs.writeFileSync(file, 'not a database at all, but it is what the disk held'.repeat(200));
    const { ledger, lines } = ledgerAt();
    const { setAsideTo, writable } = ledger.status();
    expect(writable).toBe(true);
    expect(setAsideTo).toMatch(/ledger\.sqlite\.corrupt-\d+$/);
    expect(fs.readFileSync(setAsideTo!, 'utf8')).toContain('not a database at all');
    expect(hasEvent(lines, 'ledger.set_aside', { movedTo: setAsideTo })).toBe(true);
    expect(redeemOnce(ledger, 'AFTER')).not.toBeNull();
  });

  it('writes nothing into a ledger of a newer schema, and says it cannot be written', () => {
    const db = new Database(file);
    db.pragma(`user_version = ${LEDGER_SCHEMA_VERSION + 1}`);
    db.close();
    const { ledger, lines } = ledgerAt();
    expect(ledger.status()).toMatchObject({ writable: false, problem: expect.stringMatching(/newer|schema/) });
    expect(() => ledger.assertWritable()).toThrow(LedgerUnavailable);
    expect(() => ledger.record({ kind: 'locked', attempt: ledgerAttempt('X') })).toThrow(LedgerUnavailable);
    expect(hasEvent(lines, 'ledger.unavailable')).toBe(true);
  });

  it('X over the shift by SQL: only the shift asked for counts', () => {
    const { ledger } = ledgerAt();
    redeemOnce(ledger, 'BEFORE');
    ledger.closeShift();
    redeemOnce(ledger, 'AFTER');
    expect(ledger.rows({ shift: 2 }).map((row) => row.voucherCode)).toEqual(['AFTER', 'AFTER']);
    expect(ledger.rows({ fromDay: '2026-11-27', toDay: '2026-11-27' })).toHaveLength(4);
    expect(ledger.xReport().redemptions).toBe(1);
  });
});
