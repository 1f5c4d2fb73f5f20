import type { ScanSource } from '../../common/scan.std.ts';

/** When the last scan was, and from which scanner; never what it read. */
export interface LatestScan {
  at: number;
  source: ScanSource;
}

/**
 * The kiosk's last scan from any scanner, for diagnostics and fleet health: main sees serial scans
 * itself (`serialAt`); the renderer reports those it picked up (keyboard wedge, camera).
 */
export class LastScan {
  #reported: LatestScan | null = null;

  constructor(
    private readonly serialAt: () => number | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** A scan the renderer acted on, stamped on main's clock. */
  report(source: ScanSource): void {
    this.#reported = { at: this.now(), source };
  }

  latest(): LatestScan | null {
    const serialAt = this.serialAt();
    const serial = serialAt === undefined ? null : { at: serialAt, source: 'serial' as const };
    return this.#reported && this.#reported.at >= (serial?.at ?? 0) ? { ...this.#reported } : serial;
  }
}
