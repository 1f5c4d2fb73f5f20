import type { PlatformConnection } from '../loyalty/platform-connection.node.ts';
import type { SecretOriginGuard } from '../secrets/secret-origin.node.ts';
import type { SecretStore } from '../secrets/secret-store.node.ts';
import type { ConsoleSession } from '../manager/console-session.node.ts';
import { withConsoleErrors } from './console-errors.node.ts';
import { createDiagnosticsHandlers, type DiagnosticsOptions } from './diagnostics-handlers.node.ts';
import { createExportDelivery, type UsbExport } from '../manager/export-delivery.std.ts';
import { saveOnUsbDrive, usbDrives } from '../manager/usb-drive.node.ts';
import { createPinSessionHandlers } from './pin-session-handlers.node.ts';
import { createPlatformAdminHandlers } from './platform-admin-handlers.node.ts';
import { createSettingsHandlers } from './settings-handlers.node.ts';
import { createReportHandlers, type ReportOptions } from './report-handlers.node.ts';
import { createPrinterHandlers } from './printer-handlers.node.ts';
import type { SlipService } from '../printer/slip-service.node.ts';

export interface ConsoleHandlersOptions extends Omit<DiagnosticsOptions, 'deliver' | 'now'> {
  /** The same session the dispatcher's console gate checks. */
  session: ConsoleSession;
  secrets: SecretStore;
  connection: PlatformConnection;
  /** Removes the stored secrets when the configured platform moves to another origin. */
  secretOrigin: SecretOriginGuard;
  /** The redemption ledger and the locks held now, for the Reports tab. */
  reports: Pick<ReportOptions, 'ledger' | 'reconciler' | 'locksHeld'>;
  /** The receipt printer's slips: a test slip, the last one's preview, reprints. */
  slips: SlipService;
  /** This kiosk's setup code while it is fresh (no PIN yet), for setup cards; null after. */
  setupCode: () => string | null;
  /** Where exports go when a USB stick is plugged in (the machine's own mounts unless a test says). */
  usb?: UsbExport;
  now?: () => number;
}

/**
 * The store manager's console in main, from its parts. The dispatcher lets only an open console
 * session through to the manager calls; their errors are put in bridge words here, once.
 */
export function createConsoleHandlers(options: ConsoleHandlersOptions) {
  const { now = Date.now } = options;
  const deliver = createExportDelivery(options.host, options.logger, options.usb ?? { drives: () => usbDrives(), save: saveOnUsbDrive });
  return withConsoleErrors({
    ...createPinSessionHandlers(options),
    ...createSettingsHandlers({ ...options, deliver, now }),
    ...createPlatformAdminHandlers(options),
    ...createDiagnosticsHandlers({ ...options, deliver, now }),
    ...createReportHandlers({ ...options.reports, deliver, logger: options.logger, now }),
    ...createPrinterHandlers({ slips: options.slips, storeLocale: () => options.config.get().locale.default, logger: options.logger }),
  });
}
