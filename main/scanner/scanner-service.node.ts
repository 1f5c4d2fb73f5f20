import { serialQueue } from '../../base/queue.std.ts';
import type { KioskConfig } from '../../common/config-schema.std.ts';
import type { ScannerStatus } from '../../common/contract.std.ts';
import type { Scan } from '../../common/scan.std.ts';
import type { ConfigStore } from '../config/config-store.node.ts';
import type { Logger } from '../logging/logger.std.ts';
import { SerialScanner } from './serial-scanner.node.ts';
import type { SerialScannerSettingsInput } from './serial-scanner-settings.std.ts';

type ScannerConfig = KioskConfig['scanner'];

/** The serial scanner the settings ask for; null for the keyboard, or a serial scanner with no path yet. */
export function serialSettingsFrom({ connection, serial }: ScannerConfig): SerialScannerSettingsInput | null {
  return connection === 'serial' && serial.path ? { ...serial, path: serial.path } : null;
}

/**
 * Runs the hand scanner the settings describe and follows them: a change of `scanner.*` (from the
 * console or kioskctl) closes the old port and opens the new one without a restart.
 */
export class ScannerService {
  #scanner: SerialScanner | null = null;
  #applied = '';
  #stopWatching: () => void = () => {};
  readonly #switches = serialQueue();
  /** Asleep (quiet hours): the port is closed whatever the settings say, until resume(). */
  #paused = false;

  constructor(
    private readonly options: {
      config: ConfigStore;
      logger: Logger;
      onScan: (scan: Scan) => void;
      onStatus: (status: ScannerStatus) => void;
    },
  ) {}

  start() {
    this.#apply(this.options.config.get().scanner);
    this.#stopWatching = this.options.config.onChange((config) => this.#apply(config.scanner));
  }

  status(): ScannerStatus {
    const scanner = this.options.config.get().scanner;
    if (scanner.connection === 'keyboard') return { connection: 'keyboard', state: 'not_used', path: null };
    if (this.#paused) return { connection: 'serial', state: 'disconnected', path: scanner.serial.path };
    if (!this.#scanner) return { connection: 'serial', state: 'not_configured', path: scanner.serial.path };
    const { state, path, lastError, lastScanAt } = this.#scanner.status();
    return { connection: 'serial', state, path, lastError, lastScanAt };
  }

  /** Releases the serial port (the kiosk sleeps); resolves once it is really closed. */
  pause(): Promise<void> {
    this.#paused = true;
    this.#apply(this.options.config.get().scanner);
    return this.#switches.idle();
  }

  /** Opens the configured port again; resolves once the attempt has started. */
  resume(): Promise<void> {
    this.#paused = false;
    this.#apply(this.options.config.get().scanner);
    return this.#switches.idle();
  }

  async close() {
    this.#stopWatching();
    await this.#switches.idle();
    await this.#scanner?.stop();
    this.#scanner = null;
  }

  #apply(scanner: ScannerConfig) {
    const settings = this.#paused ? null : serialSettingsFrom(scanner);
    const key = JSON.stringify(settings);
    if (key === this.#applied) return;
    this.#applied = key;
    const previous = this.#scanner;
    this.#scanner = null;
    // Ports are opened one after another: the new scanner may be the same device as the old one.
    void this.#switches.run(async () => {
      await previous?.stop();
      if (settings && this.#applied === key) {
        const next = new SerialScanner(settings, { logger: this.options.logger.child({ part: 'scanner' }) });
        next.onScan(this.options.onScan);
        next.onStatus(() => this.options.onStatus(this.status()));
        this.#scanner = next;
        next.start();
        this.options.logger.info('serial scanner configured', { path: settings.path, baudRate: settings.baudRate });
      }
      this.options.onStatus(this.status());
    }).catch((error: unknown) => this.options.logger.error('the serial scanner could not be switched', { error: String(error) }));
  }
}
