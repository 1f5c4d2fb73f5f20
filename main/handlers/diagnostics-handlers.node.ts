import type { CallHandlers } from '../bridge/dispatcher.std.ts';
import type { ConfigStore } from '../config/config-store.node.ts';
import type { FileLogSink } from '../logging/file-logger.node.ts';
import type { Logger } from '../logging/logger.std.ts';
import { LoyaltyError } from '../loyalty/errors.std.ts';
import type { PlatformConnection } from '../loyalty/platform-connection.node.ts';
import type { ScannerService } from '../scanner/scanner-service.node.ts';
import type { SecretStore } from '../secrets/secret-store.node.ts';
import type { LastScan } from '../scanner/last-scan.std.ts';
import type { UpdateState } from '../../common/update-state.std.ts';
import type { FleetConnection } from '../../common/manager-views.std.ts';
import type { ExportDelivery, ManagerHost } from '../manager/export-delivery.std.ts';
import { exportableSettings } from './settings-handlers.node.ts';

export interface DiagnosticsOptions {
  version: string;
  config: ConfigStore;
  secrets: SecretStore;
  connection: PlatformConnection;
  scanner: ScannerService;
  /** The last scan from any scanner: serial ones main saw, and those the renderer reports here. */
  lastScan: LastScan;
  logSink: FileLogSink;
  platformOrigin: () => string | null;
  /** The auto-update's state now. */
  updateState: () => UpdateState;
  host: ManagerHost;
  deliver: ExportDelivery;
  logger: Logger;
  now: () => number;
  /** The fleet broker connection (the fleet starts after the console's handlers: read at each call). */
  fleet: () => FleetConnection;
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

/** What support needs to see (diagnostics and their export, the last scan) and the kiosk's restart and quit. */
export function createDiagnosticsHandlers(options: DiagnosticsOptions) {
  const { config, logSink, logger, now } = options;
  /** The scanner's state and the latest scan from any scanner (also in the scanner test). */
  const scannerDiagnostics = () => {
    const last = options.lastScan.latest();
    return { ...options.scanner.status(), lastScanAt: last?.at, lastScanSource: last?.source };
  };
  const diagnostics = async () => ({
    version: options.version,
    demo: config.isDemo(),
    platformOrigin: options.platformOrigin(),
    api: await probePlatform(options.connection),
    secrets: await options.secrets.status(),
    scanner: scannerDiagnostics(),
    log: logSink.drops(),
    logTail: logSink.tail(200),
    update: options.updateState(),
    fleet: options.fleet(),
  });

  return {
    // A shopper call, open while the console is locked: shoppers' scans are reported then.
    reportScan: async ({ source }) => {
      options.lastScan.report(source);
      return null;
    },
    getDiagnostics: diagnostics,
    exportDiagnostics: async () => {
      // The whole log, rotated files included: it was redacted as it was written.
      const bundle = { createdAt: new Date(now()).toISOString(), diagnostics: await diagnostics(), settings: exportableSettings(config), logs: logSink.files() };
      const stamp = new Date(now()).toISOString().replace(/[:.]/g, '-');
      return options.deliver(`loyalty-kiosk-diagnostics-${stamp}.json`, `${JSON.stringify(bundle, null, 2)}\n`);
    },
    restartKiosk: async () => {
      logger.info('restart requested in the console');
      setImmediate(() => options.host.restart());
      return null;
    },
    quitKiosk: async () => {
      logger.info('quit requested in the console');
      setImmediate(() => options.host.quit());
      return null;
    },
  } satisfies Partial<CallHandlers>;
}
