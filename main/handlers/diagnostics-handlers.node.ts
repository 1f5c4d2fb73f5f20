import type { CallHandlers } from '../bridge/dispatcher.std.ts';
import type { ConfigStore } from '../config/config-store.node.ts';
import type { DiagnosticsReport } from '../diagnostics/diagnostics-report.node.ts';
import type { FileLogSink } from '../logging/file-logger.node.ts';
import type { Logger } from '../logging/logger.std.ts';
import type { ExportDelivery } from '../manager/export-delivery.std.ts';
import type { KioskHost } from '../process/kiosk-host.std.ts';
import type { LastScan } from '../scanner/last-scan.std.ts';
import { exportableSettings } from './settings-handlers.node.ts';

export interface DiagnosticsOptions {
  /** The diagnostics feature's report. */
  diagnostics: DiagnosticsReport;
  config: ConfigStore;
  /** Where the screen reports its scans. */
  lastScan: LastScan;
  logSink: FileLogSink;
  host: KioskHost;
  deliver: ExportDelivery;
  logger: Logger;
  now: () => number;
}

/** What support needs to see (diagnostics and their export, the last scan) and the kiosk's restart and quit. */
export function createDiagnosticsHandlers(options: DiagnosticsOptions) {
  const { config, diagnostics, logSink, logger, now } = options;
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
