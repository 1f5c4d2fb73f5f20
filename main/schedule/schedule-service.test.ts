import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SerialPort } from 'serialport';
import { afterEach, describe, expect, it } from 'vitest';
import type { Scan } from '../../common/scan.std.ts';
import { KioskActivity } from '../activity/kiosk-activity.std.ts';
import { BridgeConnection } from '../bridge/dispatcher.std.ts';
import { EventBus } from '../bridge/event-bus.std.ts';
import { ConfigStore } from '../config/config-store.node.ts';
import { recordingLogger } from '../electron/fake-electron.test-support.ts';
import { hasEvent } from '../../test/support/factories.std.ts';
import { ScannerService } from '../scanner/scanner-service.node.ts';
import { openPtyPair } from '../../test/support/pty.node.ts';
import { startScheduleService } from './schedule-service.node.ts';
import { testLedger } from '../../test/support/ledger.node.ts';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function waitFor(what: string, condition: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Whether another process could open the port now: the scanner holds it with an exclusive lock while open. */
function portIsFree(portPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const port = new SerialPort({ path: portPath, baudRate: 9600, autoOpen: false });
    port.open((error) => (error ? resolve(false) : port.close(() => resolve(true))));
  });
}

const IDLE_SECONDS = 10;
/** Tuesday 24 November 2026, 22:00 local time. */
const TUESDAY_22 = new Date(2026, 10, 24, 22, 0).getTime();

/**
 * The schedule service on real parts (config file, activity, event bus, serial scanner on a pty)
 * with a clock the test moves; the service looks at it every few milliseconds.
 */
async function kioskWithSchedule(settings: Record<string, unknown>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-schedule-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const pty = await openPtyPair();
  cleanups.push(() => pty.close());
  const logger = recordingLogger();
  const config = new ConfigStore({ dataDir, logger });
  const values = { 'scanner.connection': 'serial', 'scanner.serial.path': pty.scannerPath, 'idle.timeoutSeconds': IDLE_SECONDS, ...settings };
  for (const [key, value] of Object.entries(values)) config.set(key, value);

  const clock = { now: TUESDAY_22, locks: 0 };
  const activity = new KioskActivity({ locksHeld: () => clock.locks });
  const events = new EventBus();
  const sleepEvents: boolean[] = [];
  events.subscribe((event, payload) => event === 'sleep' && sleepEvents.push((payload as { asleep: boolean }).asleep));
  const scans: Scan[] = [];
  const scanner = new ScannerService({ config, logger, onScan: (scan) => scans.push(scan), onStatus: () => {} });
  scanner.start();
  cleanups.push(() => scanner.close());
  const display: boolean[] = [];
  const restarts: number[] = [];
  const ledger = testLedger(dataDir, { now: () => clock.now });
  cleanups.push(() => ledger.close());
  const schedule = startScheduleService({
    config,
    activity,
    events,
    scanner,
    display: { allowDisplaySleep: (allowed) => display.push(allowed) },
    restart: () => restarts.push(clock.now),
    ledger,
    logger,
    now: () => clock.now,
    tickMs: 5,
  });
  cleanups.push(() => schedule.close());
  const screen = new BridgeConnection('screen');
  activity.report(screen, 'attract');
  await waitFor('the scanner connected', () => scanner.status().state === 'connected');
  return { pty, clock, activity, screen, schedule, scanner, scans, sleepEvents, display, restarts, logger, ledger };
}

describe('schedule service: quiet hours on real parts', () => {
  it('asleep, the serial port is really closed and the display may sleep; a wake reopens the port and scans arrive again', async () => {
    const kiosk = await kioskWithSchedule({ 'schedule.quietHours.tuesday': '21:00-23:00' });
    const { pty, clock, schedule, scanner, scans, sleepEvents, display } = kiosk;
    expect(await portIsFree(pty.scannerPath)).toBe(false);
    expect(schedule.asleep()).toBe(false);

    clock.now += IDLE_SECONDS * 1000;
    await waitFor('asleep', () => schedule.asleep());
    expect(sleepEvents).toEqual([true]);
    expect(display).toEqual([true]);
    await waitFor('the port released', () => scanner.status().state === 'disconnected');
    expect(await portIsFree(pty.scannerPath)).toBe(true);
    // A scan made while the port is closed: it never arrives, not even on wake.
    await pty.write('WHILE-ASLEEP\r');
    await new Promise((resolve) => setTimeout(resolve, 100));

    schedule.wake();
    expect(sleepEvents).toEqual([true, false]);
    expect(display).toEqual([true, false]);
    await waitFor('the scanner connected again', () => scanner.status().state === 'connected');
    expect(await portIsFree(pty.scannerPath)).toBe(false);
    await pty.write('AFTER-WAKE\r');
    await waitFor('a scan after the wake', () => scans.length > 0);
    expect(scans.map((scan) => scan.value)).toEqual(['AFTER-WAKE']);
  });

  it('sleeps again after the idle time once woken, and wakes by itself when quiet hours end', async () => {
    const { clock, schedule, sleepEvents, scanner } = await kioskWithSchedule({ 'schedule.quietHours.tuesday': '21:00-23:00' });
    clock.now += IDLE_SECONDS * 1000;
    await waitFor('asleep', () => schedule.asleep());
    schedule.wake();
    clock.now += IDLE_SECONDS * 1000 - 1;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(schedule.asleep()).toBe(false);
    clock.now += 1;
    await waitFor('asleep again', () => schedule.asleep());

    clock.now = new Date(2026, 10, 24, 23, 0).getTime();
    await waitFor('awake at the end of quiet hours', () => !schedule.asleep());
    expect(sleepEvents).toEqual([true, false, true, false]);
    await waitFor('the scanner connected again', () => scanner.status().state === 'connected');
  });

  it('does not sleep while a screen shows a visit, and wakes when one starts on another screen', async () => {
    const { clock, activity, screen, schedule } = await kioskWithSchedule({ 'schedule.quietHours.tuesday': '21:00-23:00' });
    activity.report(screen, 'visit');
    clock.now += 60_000;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(schedule.asleep()).toBe(false);
    activity.report(screen, 'attract');
    clock.now += IDLE_SECONDS * 1000;
    await waitFor('asleep', () => schedule.asleep());
    activity.report(new BridgeConnection('second screen'), 'visit');
    expect(schedule.asleep()).toBe(false);
  });
});

describe('schedule service: the daily Z (#30 §2)', () => {
  it('closes the shift at schedule.zReportAt once a lock held at that time is given back, and opens the next', async () => {
    const { clock, logger, ledger } = await kioskWithSchedule({ 'schedule.zReportAt': '22:30' });
    expect(ledger.status().shift).toBe(1);
    clock.locks = 1;
    clock.now = new Date(2026, 10, 24, 22, 30).getTime();
    await waitFor('waiting is logged', () => hasEvent(logger.lines, 'ledger.z_waiting'));
    expect(ledger.zReports()).toEqual([]);
    clock.locks = 0;
    await waitFor('the shift closed', () => ledger.status().shift === 2);
    expect(ledger.zReports()).toEqual([expect.objectContaining({ zNumber: 1, shift: 1, closedAt: new Date(clock.now).toISOString() })]);
  });
});

describe('schedule service: nightly restart', () => {
  it('restarts through the host at the configured time when idle, after a lock held at that time is given back, and once', async () => {
    const { clock, restarts, logger } = await kioskWithSchedule({ 'schedule.nightlyRestart': '22:30' });
    clock.locks = 1;
    clock.now = new Date(2026, 10, 24, 22, 30).getTime();
    await waitFor('waiting is logged', () => hasEvent(logger.lines, 'restart.waiting'));
    expect(restarts).toEqual([]);
    clock.locks = 0;
    await waitFor('restarted', () => restarts.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(restarts).toHaveLength(1);
  });
});
