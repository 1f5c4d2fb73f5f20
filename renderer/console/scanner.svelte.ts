import type { CallOutput, KioskApi, ScannerStatus } from '../../common/contract.std.ts';
import type { Scan } from '../../common/scan.std.ts';

export type ScannerBridge = Pick<KioskApi, 'getScannerStatus' | 'listSerialPorts' | 'on'>;

/** The scanner as the settings tab shows it: main's status of the serial scanner, the ports to pick, its scans. */
export class ScannerConsole {
  status = $state<ScannerStatus | null>(null);
  ports = $state<CallOutput<'listSerialPorts'> | null>(null);
  /** Main could not list the ports: a path can still be typed. */
  portsFailed = $state(false);
  readonly #bridge: ScannerBridge;

  constructor({ bridge }: { bridge: ScannerBridge }) {
    this.#bridge = bridge;
  }

  /** Follows main's scanner status from now on; answers the way to stop. */
  watchStatus(): () => void {
    void this.#bridge.getScannerStatus().then((result) => result.ok && (this.status = result.value));
    return this.#bridge.on('scannerStatus', (next) => (this.status = next));
  }

  async refreshPorts() {
    const result = await this.#bridge.listSerialPorts();
    this.portsFailed = !result.ok;
    this.ports = result.ok ? result.value : [];
  }

  /** Scans main read (the serial scanner); the keyboard wedge's are the page's own. */
  onScan(listener: (scan: Scan) => void): () => void {
    return this.#bridge.on('scan', listener);
  }
}
