import fs from 'node:fs';
import { SerialPort } from 'serialport';
import type { Scan } from '../../common/scan.std.ts';
import { silentLogger, type Logger } from '../logging/logger.std.ts';
import { maskCode } from '../logging/redact.std.ts';
import { ListenerSet } from './listener-set.std.ts';
import { reconnectDelayMs } from './reconnect-delay.std.ts';
import { findPortByUsbIdentity, type SerialPortInfo } from './serial-port-info.std.ts';
import { listSerialPorts } from './serial-ports.node.ts';
import { SerialScanDecoder, type DecodedLine } from './serial-scan-decoder.std.ts';
import {
  SerialScannerSettings,
  type SerialScannerSettingsInput,
} from './serial-scanner-settings.std.ts';

export type SerialScannerState = 'connected' | 'connecting' | 'disconnected' | 'error';

/**
 * `disconnected`: stopped, or the device is gone and is being looked for again.
 * `error`: the device is there but opening it failed (permissions, in use); retries continue.
 */
export interface SerialScannerStatus {
  state: SerialScannerState;
  /** The port in use, or the configured one while none is. */
  path: string;
  /** Why the last connection dropped or the last attempt failed; cleared on connect. */
  lastError?: string;
  /** Epoch ms of the last scan delivered. */
  lastScanAt?: number;
}

export interface SerialScannerOptions {
  logger?: Logger;
  /** Epoch ms; stamps scans and drives de-duplication. */
  clock?: () => number;
  /** How often an open port's device path is checked. */
  watchdogIntervalMs?: number;
  /** Where the USB identity is looked up; `SerialPort.list()` by default (it lists no ptys). */
  listPorts?: () => Promise<SerialPortInfo[]>;
}

interface Connection {
  port: SerialPort;
  path: string;
  /** Device number at open time; the path naming another device (or none) means unplugged. */
  device: number | undefined;
  decoder: SerialScanDecoder;
  watchdog?: NodeJS.Timeout;
  idleTimer?: NodeJS.Timeout;
}

/**
 * A serial or USB-CDC hand scanner: opens the port, turns its bytes into `Scan` events and keeps
 * coming back after an unplug, finding the device by its path or by its USB identity.
 *
 * Losing the device is noticed three ways: the port's `close` (disconnect) or `error` event, and
 * a watchdog that checks the device path, because a pty or USB device vanishing mid-read can
 * leave the serialport binding spinning without emitting anything.
 */
export class SerialScanner {
  readonly #settings: SerialScannerSettings;
  readonly #logger: Logger;
  readonly #clock: () => number;
  readonly #watchdogIntervalMs: number;
  readonly #listPorts: () => Promise<SerialPortInfo[]>;
  readonly #scans: ListenerSet<Scan>;
  readonly #statuses: ListenerSet<SerialScannerStatus>;
  #status: SerialScannerStatus;
  #started = false;
  /** Bumped by start() and stop(), so an attempt from an earlier run gives up. */
  #run = 0;
  #attempt: Promise<void> = Promise.resolve();
  #retryTimer: NodeJS.Timeout | undefined;
  #failedAttempts = 0;
  #connection: Connection | undefined;
  #released: Promise<void> = Promise.resolve();

  constructor(settings: SerialScannerSettingsInput, options: SerialScannerOptions = {}) {
    this.#settings = SerialScannerSettings.parse(settings);
    this.#logger = options.logger ?? silentLogger;
    this.#clock = options.clock ?? Date.now;
    this.#watchdogIntervalMs = options.watchdogIntervalMs ?? 1000;
    this.#listPorts = options.listPorts ?? listSerialPorts;
    this.#scans = new ListenerSet('serial scan', this.#logger);
    this.#statuses = new ListenerSet('serial scanner status', this.#logger);
    this.#status = { state: 'disconnected', path: this.#settings.path };
  }

  onScan(listener: (scan: Scan) => void): () => void {
    return this.#scans.add(listener);
  }

  /** Called with the new status whenever anything in `status()` changes. */
  onStatus(listener: (status: SerialScannerStatus) => void): () => void {
    return this.#statuses.add(listener);
  }

  status(): SerialScannerStatus {
    return { ...this.#status };
  }

  /** Bytes of the unfinished line held for the open port (0 without one): never above MAX_LINE_BYTES. */
  get bufferedBytes(): number {
    return this.#connection?.decoder.bufferedBytes ?? 0;
  }

  start() {
    if (this.#started) return;
    this.#started = true;
    this.#failedAttempts = 0;
    this.#attempt = this.#connect(++this.#run);
  }

  /** Stops retrying and releases the port; resolves once it is closed. */
  stop(): Promise<void> {
    if (this.#started) {
      this.#started = false;
      this.#run++;
      clearTimeout(this.#retryTimer);
      // An attempt in flight sees the new run and closes what it opened.
      this.#released = Promise.all([this.#attempt, this.#release()]).then(() => undefined);
      this.#setStatus({ state: 'disconnected' });
    }
    return this.#released;
  }

  async #connect(run: number): Promise<void> {
    try {
      this.#setStatus({ state: 'connecting' });
      const path = await this.#findDevice();
      if (run !== this.#run) return;
      if (path === undefined) return this.#retryLater('disconnected', 'device not found');

      const connection = this.#newConnection(path);
      const openError = await new Promise<Error | null>((resolve) => connection.port.open(resolve));
      if (run !== this.#run) {
        if (!openError) await closePort(connection.port);
        return;
      }
      if (openError) return this.#retryLater('error', openError.message);

      connection.device = deviceNumber(path);
      connection.watchdog = setInterval(
        this.#safely('watchdog', () => this.#checkDevice(connection)),
        this.#watchdogIntervalMs,
      );
      this.#connection = connection;
      this.#failedAttempts = 0;
      this.#logger.info('serial scanner connected', { event: 'scanner.connected', path });
      this.#setStatus({ state: 'connected', path, lastError: undefined });
    } catch (error) {
      this.#logger.error('serial scanner connect failed', { error });
      if (run === this.#run) this.#retryLater('error', String(error));
    }
  }

  /** The USB identity wins when it is plugged in (its path may have changed); else the path. */
  async #findDevice(): Promise<string | undefined> {
    const { path, usb } = this.#settings;
    if (usb) {
      try {
        const match = findPortByUsbIdentity(await this.#listPorts(), usb);
        if (match) return match.path;
      } catch (error) {
        this.#logger.debug('listing serial ports failed', { error });
      }
    }
    return fs.existsSync(path) ? path : undefined;
  }

  /** A port with its handlers attached; they ignore it once it is no longer the current one. */
  #newConnection(path: string): Connection {
    const { baudRate, dataBits, parity, stopBits, terminator } = this.#settings;
    const port = new SerialPort({ path, baudRate, dataBits, parity, stopBits, autoOpen: false });
    const connection: Connection = {
      port,
      path,
      device: undefined,
      decoder: new SerialScanDecoder(terminator),
    };
    const isCurrent = () => this.#connection === connection;
    port.on(
      'data',
      this.#safely('data', (chunk: Buffer) => {
        if (!isCurrent()) return;
        this.#deliver(connection.decoder.push(chunk, this.#clock()));
        if (typeof terminator === 'object') {
          clearTimeout(connection.idleTimer);
          connection.idleTimer = setTimeout(
            this.#safely('idle', () => this.#deliver(connection.decoder.flush(this.#clock()))),
            terminator.idleMs,
          );
        }
      }),
    );
    port.on(
      'error',
      this.#safely('error', (error: Error) => {
        if (isCurrent()) this.#lose(connection, error.message);
      }),
    );
    port.on(
      'close',
      this.#safely('close', (error: Error | null) => {
        if (isCurrent()) this.#lose(connection, error?.message ?? 'port closed');
      }),
    );
    return connection;
  }

  #checkDevice(connection: Connection) {
    const device = deviceNumber(connection.path);
    if (device === undefined || device !== connection.device) {
      this.#lose(connection, 'device path vanished');
    }
  }

  #lose(connection: Connection, reason: string) {
    if (this.#connection !== connection) return;
    void this.#release();
    this.#retryLater('disconnected', reason);
  }

  #release(): Promise<void> {
    const connection = this.#connection;
    if (!connection) return Promise.resolve();
    this.#connection = undefined;
    clearInterval(connection.watchdog);
    clearTimeout(connection.idleTimer);
    return closePort(connection.port, this.#logger);
  }

  #retryLater(state: 'disconnected' | 'error', reason: string) {
    const retryInMs = reconnectDelayMs(this.#failedAttempts);
    // The first failure of a streak is news; the retries after it are not.
    const level = this.#failedAttempts === 0 ? 'warn' : 'debug';
    this.#logger[level]('serial scanner unavailable', { ...(level === 'warn' ? { event: 'scanner.unavailable' } : {}), path: this.#status.path, reason, retryInMs });
    this.#failedAttempts++;
    this.#setStatus({ state, lastError: reason });
    const run = this.#run;
    this.#retryTimer = setTimeout(() => {
      this.#attempt = this.#connect(run);
    }, retryInMs);
  }

  #deliver(lines: DecodedLine[]) {
    for (const line of lines) {
      if (line.kind === 'scan') {
        const { value, symbology, at } = line.scan;
        this.#logger.debug('serial scan', { value: maskCode(value), symbology });
        this.#setStatus({ lastScanAt: at });
        this.#scans.emit(line.scan);
      } else if (line.reason === 'duplicate') {
        this.#logger.debug('serial scan repeated, ignored');
      } else {
        this.#logger.warn('serial scanner dropped a line', { event: 'scanner.line_dropped', reason: line.reason });
      }
    }
  }

  #setStatus(change: Partial<SerialScannerStatus>) {
    const next = { ...this.#status, ...change };
    const current = this.#status;
    if (
      next.state === current.state &&
      next.path === current.path &&
      next.lastError === current.lastError &&
      next.lastScanAt === current.lastScanAt
    ) {
      return;
    }
    this.#status = next;
    this.#statuses.emit({ ...next });
  }

  /** Event and timer callbacks must never throw into serialport or the event loop. */
  #safely<Args extends unknown[]>(what: string, handler: (...args: Args) => void) {
    return (...args: Args) => {
      try {
        handler(...args);
      } catch (error) {
        this.#logger.error(`serial scanner ${what} handler failed`, { error });
      }
    };
  }
}

function deviceNumber(path: string): number | undefined {
  try {
    return fs.statSync(path).rdev;
  } catch {
    return undefined;
  }
}

function closePort(port: SerialPort, logger: Logger = silentLogger): Promise<void> {
  return new Promise((resolve) => {
    if (!port.isOpen) return resolve();
    port.close((error) => {
      if (error) logger.debug('serial port close failed', { error });
      resolve();
    });
  });
}
