import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { KioskActivity } from '../activity/kiosk-activity.std.ts';
import { BridgeConnection } from '../bridge/dispatcher.std.ts';
import { ConfigStore } from '../config/config-store.node.ts';
import { FileLogSink } from '../logging/file-logger.node.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { ServiceHealth } from '../loyalty/service-health.node.ts';
import { hashPin } from '../manager/pin-hash.node.ts';
import { LastScan } from '../scanner/last-scan.std.ts';
import { ScannerService } from '../scanner/scanner-service.node.ts';
import { UpdateService } from '../update/update-service.node.ts';
import { FleetHealth } from './fleet-messages.std.ts';
import { fleetHealth, type HealthParts } from './fleet-service.node.ts';
import Database from 'better-sqlite3';
import { closeTestLedgers, testLedger } from '../../test/support/ledger.node.ts';
import { ledgerAttempt } from '../../test/support/factories.std.ts';
import { dataFiles } from '../paths/data-files.node.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-health-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** The kiosk's own health builder over real parts; `sleeping` stands for the quiet-hours schedule. */
function healthParts(sleeping: { now: boolean }, ledgerDir = dataDir) {
  const config = new ConfigStore({ dataDir, logger: silentLogger });
  const activity = new KioskActivity({ locksHeld: () => 0 });
  const logSink = new FileLogSink({ dir: path.join(dataDir, 'logs') });
  const ledger = testLedger(ledgerDir);
  const parts: HealthParts = {
    version: '1.4.0',
    config,
    dataDir,
    logSink,
    health: new ServiceHealth({ probe: async () => undefined, onChange: () => {}, logger: silentLogger, counters: { since: 1_000, errors: { timeout: 3 }, outOfServiceMs: 90_000 } }),
    activity,
    scanner: new ScannerService({ config, logger: silentLogger, onScan: () => {}, onStatus: () => {} }),
    lastScan: new LastScan(() => undefined),
    schedule: { asleep: () => sleeping.now },
    update: new UpdateService({ updater: null, offNote: 'test', quitToInstall: () => {}, runningAppImage: null, config, activity, logger: silentLogger, dataDir, version: '1.4.0' }),
    ledger,
    slips: { health: () => ({ kind: 'network', state: 'paper_near_end', checkedAt: 1_700_000_000_000 }) },
  };
  return { parts, config, ledger };
}

afterEach(() => closeTestLedgers());

describe('fleet health (#23 §1)', () => {
  it('says how the receipt printer was when last asked: a roll running low reaches head office before it runs out (#31 §3)', async () => {
    const health = FleetHealth.parse(await fleetHealth(healthParts({ now: false }).parts, Date.now()));
    expect(health.printer).toEqual({ kind: 'network', state: 'paper_near_end', checkedAt: 1_700_000_000_000 });
  });

  it('says a shopper\'s call for staff while it stands, for Home Assistant to notify (#33 §11)', async () => {
    const { parts } = healthParts({ now: false });
    const screen = new BridgeConnection('window-1');
    parts.activity.report(screen, 'visit');
    expect(FleetHealth.parse(await fleetHealth(parts, Date.now())).staffCalled).toBeNull();
    parts.activity.callStaff(screen, 'problem.redeem.unavailable');
    expect(FleetHealth.parse(await fleetHealth(parts, Date.now())).staffCalled).toEqual({ since: expect.any(Number), reason: 'problem.redeem.unavailable' });
  });

  it('says whether the redemption ledger can be written, and when a damaged one was kept aside (#30 §1)', async () => {
    const ledgerOk = { mismatches: 0, unreconciledShifts: 0 };
    expect((await fleetHealth(healthParts({ now: false }).parts, Date.now())).ledger).toEqual({ writable: true, problem: null, setAside: false, ...ledgerOk });

    const damaged = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-health-ledger-'));
    fs.writeFileSync(dataFiles(damaged).ledger, 'no database');
    expect((await fleetHealth(healthParts({ now: false }, damaged).parts, Date.now())).ledger).toEqual({ writable: true, problem: null, setAside: true, ...ledgerOk });

    const newer = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-health-ledger-'));
    const db = new Database(dataFiles(newer).ledger);
    db.pragma('user_version = 999');
    db.close();
    const health = FleetHealth.parse(await fleetHealth(healthParts({ now: false }, newer).parts, Date.now()));
    expect(health.ledger).toEqual({ writable: false, problem: expect.stringContaining('schema 999'), setAside: false, ...ledgerOk });
    for (const dir of [damaged, newer]) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("publishes the newest reconciled Z's mismatch count, and the closed shifts still to check (#30 §3)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-health-ledger-'));
    const { parts, ledger } = healthParts({ now: false }, dir);
    const attempt = ledgerAttempt('COFFEE-1');
    ledger.record({ kind: 'locked', attempt });
    ledger.record({ kind: 'redeemed', attempt, settledBy: 'redeem' });
    ledger.closeShift();
    ledger.closeShift();
    expect((await fleetHealth(parts, Date.now())).ledger).toMatchObject({ mismatches: 0, unreconciledShifts: 2 });

    const mismatch = { kind: 'fewer_at_platform', voucherCode: 'COFFEE-1', voucherName: null, ledgerRedemptions: 1, platformRedemptions: 0, ledgerRedeemedAt: null, platformRedeemedAt: null } as const;
    ledger.recordCheck(1, { voucherUuid: attempt.voucherUuid, mismatch, resolved: 0 });
    ledger.finishReconciliation(1);
    expect((await fleetHealth(parts, Date.now())).ledger).toMatchObject({ mismatches: 1, unreconciledShifts: 1 });
    fs.rmSync(dir, { recursive: true, force: true });
  });


  it('says who the kiosk is, whether it sleeps, and since when its counters count', async () => {
    const sleeping = { now: false };
    const { parts, config } = healthParts(sleeping);
    config.setMany({ 'fleet.groups': ['north', 'pilot'], 'api.shopUuid': '6f1c2a7e-1b0d-4e55-9a43-2f0c8e5b7d11' });
    const awake = FleetHealth.parse(await fleetHealth(parts, Date.now()));
    expect(awake).toMatchObject({
      kioskId: os.hostname(),
      shop: '6f1c2a7e-1b0d-4e55-9a43-2f0c8e5b7d11',
      groups: ['north', 'pilot'],
      asleep: false,
      countersSince: 1_000,
      platformErrors: { timeout: 3 },
      outOfServiceMinutes: 1.5,
    });
    sleeping.now = true;
    expect((await fleetHealth(parts, Date.now())).asleep).toBe(true);
  });

  it('fingerprints the settings in force alike on kiosks set alike, whoever they are and whatever their PIN', async () => {
    const { parts, config } = healthParts({ now: false });
    const fingerprint = async () => (await fleetHealth(parts, Date.now())).settings;
    const before = await fingerprint();
    expect(before).toMatch(/^[0-9a-f]{12}$/);
    config.set('manager.pinHash', await hashPin('2580'));
    config.setMany({ 'fleet.kioskId': 'store-0043', 'fleet.groups': ['south'], 'api.shopUuid': '0b8e9c52-4a57-4bd4-8f0e-2f4c1d7e9a10', 'fleet.mqtt.username': 'store-0043' });
    expect(await fingerprint()).toBe(before);
    config.set('idle.timeoutSeconds', 45);
    expect(await fingerprint()).not.toBe(before);
  });
});
