import { eventTimeline } from './event-timeline.std.ts';
import type { ConfigStore } from '../config/config-store.node.ts';
import type { FileLogSink } from '../logging/file-logger.node.ts';
import { LoyaltyError } from '../loyalty/errors.std.ts';
import type { PlatformConnection } from '../loyalty/platform-connection.node.ts';
import type { LastScan } from '../scanner/last-scan.std.ts';
import type { ScannerService } from '../scanner/scanner-service.node.ts';
import type { SecretStore } from '../secrets/secret-store.node.ts';
import type { FleetConnection } from '../../common/manager-views.std.ts';
import type { UpdateState } from '../../common/update-state.std.ts';
import type { PrinterHealth } from '../printer/slip-service.node.ts';

export interface DiagnosticsReportParts {
  version: string;
  config: ConfigStore;
  secrets: SecretStore;
  connection: PlatformConnection;
  scanner: ScannerService;
  /** The last scan from any scanner: serial ones main saw, and those the renderer reports. */
  lastScan: LastScan;
  logSink: FileLogSink;
  platformOrigin: () => string | null;
  /** The auto-update's state now. */
  updateState: () => UpdateState;
  /** The fleet broker connection (the fleet starts after the report is built: read at each call). */
  fleet: () => FleetConnection;
  /** The receipt printer, asked now. */
  printer: () => Promise<PrinterHealth>;
}

/** Whether the platform answers, and how fast; why not, in words without a stack. */
async function probePlatform(connection: PlatformConnection) {
  const started = performance.now();
  try {
    await connection.client().listVouchers({ limit: 0 });
    return { reachable: true, latencyMs: Math.round(performance.now() - started), problem: null };
  } catch (error) {
    const problem = error instanceof LoyaltyError ? `${error.kind}${error.status ? ` (${error.status})` : ''}` : String(error);
    return { reachable: false, latencyMs: null, problem };
  }
}

/** How many of the newest events the timeline shows: a few days of a quiet kiosk. */
const TIMELINE_EVENTS = 60;

/**
 * The kiosk's diagnostics report as support sees it (redacted as the log was written): one report
 * for the console's diagnostics, their export and the fleet's `diagnostics` command.
 */
export function diagnosticsReport(parts: DiagnosticsReportParts) {
  /** The scanner's state and the latest scan from any scanner (also in the scanner test). */
  const scannerDiagnostics = () => {
    const last = parts.lastScan.latest();
    return { ...parts.scanner.status(), lastScanAt: last?.at, lastScanSource: last?.source };
  };
  return async () => ({
    version: parts.version,
    demo: parts.config.isDemo(),
    platformOrigin: parts.platformOrigin(),
    api: await probePlatform(parts.connection),
    secrets: await parts.secrets.status(),
    scanner: scannerDiagnostics(),
    log: parts.logSink.drops(),
    logTail: parts.logSink.tail(200),
    timeline: eventTimeline(
      parts.logSink.files().flatMap((file) => file.text.split('\n')),
      TIMELINE_EVENTS,
    ),
    update: parts.updateState(),
    fleet: parts.fleet(),
    printer: await parts.printer(),
  });
}

export type DiagnosticsReport = ReturnType<typeof diagnosticsReport>;
