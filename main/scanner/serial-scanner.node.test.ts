import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SerialPort } from 'serialport';
import { afterEach, describe, expect, it } from 'vitest';
import { KioskConfig } from '../../common/config-schema.std.ts';
import type { Scan } from '../../common/scan.std.ts';
import { hasEvent, linesOf, recordingLogger } from '../../test/support/factories.std.ts';
import { openPtyPair, type PtyPair } from '../../test/support/pty.node.ts';
import { MAX_LINE_BYTES } from './line-framer.std.ts';
import { serialSettingsFrom } from './scanner-service.node.ts';
import type { SerialPortInfo } from './serial-port-info.std.ts';
import { listSerialPorts } from './serial-ports.node.ts';
import { SerialScanner, type SerialScannerOptions, type SerialScannerState } from './serial-scanner.node.ts';
import { SerialScannerSettings, type SerialScannerSettingsInput } from './serial-scanner-settings.std.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, condition: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/** Fails when `promise` takes longer than `ms`: a hung close must fail the test, not stall it. */
async function within<T>(what: string, ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The scanner settings main derives from `scanner.serial.*` in config.json. */
function settingsFromConfig(serial: Record<string, unknown>) {
  const settings = serialSettingsFrom(KioskConfig.parse({ scanner: { connection: 'serial', serial } }).scanner);
  if (!settings) throw new Error('no serial scanner configured');
  return settings;
}

async function ptyPair(dir?: string): Promise<PtyPair> {
  const pty = await openPtyPair(dir === undefined ? {} : { dir });
  cleanups.push(() => pty.close());
  return pty;
}

/** A started scanner recording its scans and state changes; stopped after the test. */
function watchScanner(settings: SerialScannerSettingsInput, options: SerialScannerOptions = {}) {
  const scanner = new SerialScanner(settings, options);
  const scans: Scan[] = [];
  const states: SerialScannerState[] = [];
  scanner.onScan((scan) => scans.push(scan));
  scanner.onStatus((status) => {
    if (states.at(-1) !== status.state) states.push(status.state);
  });
  cleanups.push(() => scanner.stop());
  scanner.start();
  const connected = () => waitFor('connected', () => scanner.status().state === 'connected');
  const values = () => scans.map((scan) => scan.value);
  const scanned = (value: string) => waitFor(`scan ${value}`, () => values().includes(value));
  return { scanner, scans, states, values, connected, scanned };
}

async function connectedScanner(
  pty: PtyPair,
  settings: Omit<SerialScannerSettingsInput, 'path'> = {},
  options: SerialScannerOptions = {},
) {
  const watched = watchScanner({ path: pty.scannerPath, ...settings }, options);
  await watched.connected();
  return watched;
}

/**
 * Unplugs `pty` and waits for the scanner to notice, then plugs a new one in at the same path and
 * waits for a scan through it; returns the new one.
 */
async function replug({ scanner, scanned }: ReturnType<typeof watchScanner>, pty: PtyPair): Promise<PtyPair> {
  await pty.close();
  await waitFor('disconnected', () => scanner.status().state !== 'connected');
  expect(scanner.status().lastError).toBeTruthy();

  const next = await ptyPair(pty.dir);
  await waitFor('reconnected', () => scanner.status().state === 'connected');
  await next.write('AFTER\r');
  await scanned('AFTER');
  return next;
}

describe('SerialScanner reading a pty', () => {
  it.each([
    ['CR', '\r'],
    ['LF', '\n'],
    ['CRLF', '\r\n'],
  ] as const)('reads lines ended by %s', async (terminator, end) => {
    const pty = await ptyPair();
    const { scans, values, scanned } = await connectedScanner(pty, { terminator });
    await pty.write(`2700000000017${end}CARD-2${end}`);
    await scanned('CARD-2');
    expect(values()).toEqual(['2700000000017', 'CARD-2']);
    expect(scans[0]).toMatchObject({ source: 'serial', value: '2700000000017' });
  });

  it('ends a line after an idle pause when the scanner sends no terminator', async () => {
    const pty = await ptyPair();
    const { values, scanned } = await connectedScanner(pty, { terminator: 'idle', idleGapMs: 60 });
    // One write each: two writes 10 ms apart could reach the scanner further apart than the gap on a
    // loaded machine. Chunks joined within the gap: the next test, with a gap four times the pause.
    await pty.write('1234');
    await scanned('1234');
    await pty.write('5678');
    await scanned('5678');
    expect(values()).toEqual(['1234', '5678']);
  });

  it('ends an idle-terminated line after scanner.serial.idleGapMs, not sooner', async () => {
    const pty = await ptyPair();
    const settings = settingsFromConfig({ path: pty.scannerPath, terminator: 'idle', idleGapMs: 400 });
    expect(SerialScannerSettings.parse(settings).terminator).toEqual({ idleMs: 400 });
    const { values, connected, scanned } = watchScanner(settings);
    await connected();
    await pty.write('12');
    await sleep(100); // a slow scanner's pause: well past 50 ms, well inside the configured gap
    await pty.write('34');
    await scanned('1234');
    expect(values()).toEqual(['1234']);
  });

  it('takes AIM symbology identifiers off the value and reports them', async () => {
    const pty = await ptyPair();
    const { scans, scanned } = await connectedScanner(pty);
    await pty.write(']Q1https://example.test/c/42\r]E04006381333931\r]C1ABC-1\r]d2010123\r');
    await scanned('010123');
    expect(scans.map(({ value, symbology }) => [symbology, value])).toEqual([
      ['Q1', 'https://example.test/c/42'],
      ['E0', '4006381333931'],
      ['C1', 'ABC-1'],
      ['d2', '010123'],
    ]);
  });

  it('joins a line written one byte at a time, with CRLF split across writes', async () => {
    const pty = await ptyPair();
    const { values, scanned } = await connectedScanner(pty, { terminator: 'CRLF' });
    for (const byte of Buffer.from('CARD-0001\r\n')) {
      await pty.write(Uint8Array.of(byte));
      await sleep(2);
    }
    await pty.write('CARD-0002\r');
    await sleep(20);
    await pty.write('\nCARD-0003\r');
    await sleep(20);
    await pty.write('\n');
    await scanned('CARD-0003');
    expect(values()).toEqual(['CARD-0001', 'CARD-0002', 'CARD-0003']);
  });

  it('drops an overlong line, logs it, and reads the good lines after it', async () => {
    const pty = await ptyPair();
    const { logger, lines } = recordingLogger();
    const { values, scanned } = await connectedScanner(pty, {}, { logger });
    await pty.write('7'.repeat(MAX_LINE_BYTES + 1000));
    await pty.write('7'.repeat(MAX_LINE_BYTES) + '\rGOOD-1\r');
    await pty.write('GOOD-2\r');
    await scanned('GOOD-2');
    expect(values()).toEqual(['GOOD-1', 'GOOD-2']);
    expect(linesOf(lines, 'scanner.line_dropped')).toEqual([expect.objectContaining({ level: 'warn', fields: { event: 'scanner.line_dropped', reason: 'overlong' } })]);
  });

  it('counts the same value within 500 ms once, and again after 500 ms', async () => {
    const pty = await ptyPair();
    let now = 1_000_000;
    const { scans, values, scanned } = await connectedScanner(pty, {}, { clock: () => now });
    await pty.write('DUP\r');
    await scanned('DUP');
    now += 400;
    await pty.write('DUP\rMARK-1\r');
    await scanned('MARK-1');
    expect(values()).toEqual(['DUP', 'MARK-1']);

    now += 500;
    await pty.write('MARK-1\r');
    await pty.write('MARK-2\r');
    await scanned('MARK-2');
    expect(values()).toEqual(['DUP', 'MARK-1', 'MARK-1', 'MARK-2']);
    expect(scans[0]?.at).toBe(1_000_000);
  });

  it('never logs a full scan value', async () => {
    const pty = await ptyPair();
    const { logger, lines } = recordingLogger();
    const { scanned } = await connectedScanner(pty, {}, { logger });
    await pty.write('6280001234567890\r');
    await scanned('6280001234567890');
    const logged = JSON.stringify(lines);
    expect(logged).toContain('7890');
    expect(logged).not.toContain('628000123456');
  });

  it('survives random bytes, holds at most MAX_LINE_BYTES of a line that never ends, and reads a good line after', async () => {
    const pty = await ptyPair();
    const { logger, lines } = recordingLogger();
    const { scanner, scanned } = await connectedScanner(pty, {}, { logger });
    // What the scanner holds, sampled while the bytes flow in.
    let mostBuffered = 0;
    const sampler = setInterval(() => (mostBuffered = Math.max(mostBuffered, scanner.bufferedBytes)), 1);
    cleanups.push(async () => clearInterval(sampler));
    const noise = fc.uint8Array({ minLength: 1, maxLength: 600 });
    // Up to three lines' worth of bytes with no terminator in them: CR is this scanner's only one.
    const endless = fc.uint8Array({ maxLength: 3 * MAX_LINE_BYTES }).map((bytes) => bytes.filter((byte) => byte !== 0x0d));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(noise, endless, async (before, garbage) => {
        await pty.write(before);
        await pty.write(garbage);
        // The unfinished line: what follows the noise's last CR, then the garbage; past the cap, nothing.
        const held = before.length - 1 - before.lastIndexOf(0x0d) + garbage.length;
        await waitFor(`${held} bytes held`, () => scanner.bufferedBytes === (held > MAX_LINE_BYTES ? 0 : held));
        await pty.write(`\rMARK-${++run}\r`);
        await scanned(`MARK-${run}`);
        expect(scanner.bufferedBytes).toBe(0);
      }),
      {
        numRuns: 25,
        // Always: a line filling the buffer exactly, and three buffers' worth of one line.
        examples: [
          [Uint8Array.of(0x41), new Uint8Array(MAX_LINE_BYTES - 1).fill(0x47)],
          [Uint8Array.of(0x41), new Uint8Array(3 * MAX_LINE_BYTES).fill(0x47)],
        ],
      },
    );
    expect(mostBuffered).toBe(MAX_LINE_BYTES);
    expect(hasEvent(lines, 'scanner.line_dropped', { reason: 'overlong' })).toBe(true);
    expect(scanner.status().state).toBe('connected');
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
  });

  it('keeps delivering scans to other listeners when one throws', async () => {
    const pty = await ptyPair();
    const { logger, lines } = recordingLogger();
    const { scanner, scanned } = await connectedScanner(pty, {}, { logger });
    scanner.onScan(() => {
      throw new Error('listener bug');
    });
    await pty.write('A-1\rA-2\r');
    await scanned('A-2');
    expect(lines.filter((line) => line.level === 'error')).toHaveLength(2);
  });
});

describe('SerialScanner connection', () => {
  it('reconnects after the pty is removed and comes back at the same path', async () => {
    const first = await ptyPair();
    const watched = await connectedScanner(first);
    const { scanner, states, scanned } = watched;
    await first.write('BEFORE\r');
    await scanned('BEFORE');
    await sleep(50); // idle before unplugging: see test/support/pty.node.ts
    await replug(watched, first);
    expect(states[0]).toBe('connecting');
    expect(states.slice(1, 3)).toEqual(['connected', 'disconnected']);
    expect(states.at(-1)).toBe('connected');
    expect(scanner.status().lastError).toBeUndefined();
  });

  it('finds the scanner by its USB identity when it comes back at another path', async () => {
    const first = await ptyPair();
    const other = await ptyPair(); // the same model with another serial number: not ours
    const usb = { vendorId: '05e0', productId: '1200', serialNumber: 'S-1' };
    const settings = settingsFromConfig({ path: first.scannerPath, usb });
    expect(settings.usb).toEqual(usb);
    // SerialPort.list() lists no ptys: this stands in for it, listing what is plugged in now.
    let ours = first;
    const listPorts = async (): Promise<SerialPortInfo[]> =>
      [
        { path: other.scannerPath, vendorId: '05E0', productId: '1200', serialNumber: 'S-2' },
        { path: ours.scannerPath, vendorId: '05E0', productId: '1200', serialNumber: 'S-1' },
      ].filter((port) => fs.existsSync(port.path));
    const { scanner, scanned } = watchScanner(settings, { listPorts });
    await waitFor('connected', () => scanner.status().state === 'connected');
    await first.write('ON-FIRST\r');
    await scanned('ON-FIRST');
    await sleep(50); // idle before unplugging: see test/support/pty.node.ts
    await first.close();
    await waitFor('disconnected', () => scanner.status().state !== 'connected');

    ours = await ptyPair(); // replugged: renumbered, another directory altogether
    await waitFor('reconnected', () => scanner.status().state === 'connected');
    expect(scanner.status().path).toBe(ours.scannerPath);
    await ours.write('ON-SECOND\r');
    await scanned('ON-SECOND');
  });

  it('comes back after its pty is killed with a read in flight, and stops in time after such a kill', async () => {
    const first = await ptyPair();
    const watched = await connectedScanner(first, {}, { watchdogIntervalMs: 50 });
    // Killed at once after a write, while the binding is reading it: the case that can leave it
    // spinning with no event, which the watchdog catches when the port reports nothing.
    await first.write('HALF-A-LI');
    const second = await replug(watched, first);

    const { scanner } = watched;
    await second.write('HALF-A-LI');
    await second.close();
    await within('stop() after the kill', 2000, scanner.stop());
    expect(scanner.status().state).toBe('disconnected');
  });

  it('notices a vanished device path without any port event (watchdog) and follows it to a new device', async () => {
    const first = await ptyPair();
    const second = await ptyPair();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-scanner-'));
    cleanups.push(() => fs.promises.rm(dir, { recursive: true, force: true }));
    const link = path.join(dir, 'scanner');
    fs.symlinkSync(first.scannerPath, link);
    const { scanner, scanned } = watchScanner({ path: link }, { watchdogIntervalMs: 50 });
    await waitFor('connected', () => scanner.status().state === 'connected');

    fs.unlinkSync(link); // the first pty stays alive, so the port itself reports nothing
    await waitFor('disconnected', () => scanner.status().state === 'disconnected');
    expect(scanner.status().lastError).toBe('device path vanished');

    fs.symlinkSync(second.scannerPath, link);
    await waitFor('reconnected', () => scanner.status().state === 'connected');
    await second.write('ON-SECOND\r');
    await scanned('ON-SECOND');
  });

  it('waits for a device that is not there yet', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-pty-'));
    const { scanner, scanned } = watchScanner({ path: path.join(dir, 'A') });
    await waitFor('not found', () => scanner.status().lastError === 'device not found');
    expect(scanner.status().state).not.toBe('connected');

    const pty = await ptyPair(dir);
    await waitFor('connected', () => scanner.status().state === 'connected');
    await pty.write('LATE\r');
    await scanned('LATE');
  });

  it('reports an error state when the path cannot be opened as a serial port', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-scanner-'));
    cleanups.push(() => fs.promises.rm(dir, { recursive: true, force: true }));
    const notATty = path.join(dir, 'plain-file');
    fs.writeFileSync(notATty, '');
    const { scanner } = watchScanner({ path: notATty });
    await waitFor('error', () => scanner.status().state === 'error');
    expect(scanner.status().lastError).toBeTruthy();
  });

  // Quiet hours close the port: a scan made then must not act on wake. The serialport binding
  // flushes the tty's input at open; this holds it to that.
  it('ignores what the device sent while the port was closed: a scan nobody saw act must not act once it opens', async () => {
    const pty = await ptyPair();
    // Another holder of the tty keeps its input queue alive while the scanner has it closed
    // (as a USB adapter's driver buffers what the device sends).
    const holder = fs.openSync(pty.scannerPath, fs.constants.O_RDONLY | fs.constants.O_NOCTTY | fs.constants.O_NONBLOCK);
    cleanups.push(async () => fs.closeSync(holder));
    await pty.write('STALE\r');
    await sleep(100);
    const { values, scanned } = await connectedScanner(pty);
    await pty.write('FRESH\r');
    await scanned('FRESH');
    expect(values()).toEqual(['FRESH']);
  });

  it('stop() releases the port, is idempotent, and ends scanning', async () => {
    const pty = await ptyPair();
    const { scanner, values } = await connectedScanner(pty);
    const other = () =>
      new Promise<Error | null>((resolve) => {
        const port = new SerialPort({ path: pty.scannerPath, baudRate: 9600, autoOpen: false });
        port.open((error) => (error ? resolve(error) : port.close(() => resolve(null))));
      });
    expect(await other()).toBeInstanceOf(Error); // held with an exclusive lock while running

    await Promise.all([scanner.stop(), scanner.stop()]);
    await scanner.stop();
    expect(scanner.status().state).toBe('disconnected');
    expect(await other()).toBeNull();

    await pty.write('AFTER-STOP\r');
    await sleep(100);
    expect(values()).toEqual([]);
  });
});

describe('listSerialPorts', () => {
  it('lists the ports the OS knows, each with a path', async () => {
    const ports = await listSerialPorts();
    expect(Array.isArray(ports)).toBe(true);
    for (const port of ports) expect(port.path).toMatch(/^\/dev\//);
  });
});
