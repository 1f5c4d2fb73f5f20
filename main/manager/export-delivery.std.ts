import type { Logger } from '../logging/logger.std.ts';
import type { KioskHost } from '../process/kiosk-host.std.ts';

/** USB sticks plugged in now, and how to write onto one (main/manager/usb-drive.node.ts). */
export interface UsbExport {
  drives: () => string[];
  save: (drive: string, fileName: string, content: string) => string;
}

/**
 * Hands an export out: onto a USB stick when one is plugged in (the manager takes it away), else
 * saved where the manager picks when the host can, else for the renderer to download.
 */
export function createExportDelivery(host: Pick<KioskHost, 'saveFile'>, logger: Logger, usb?: UsbExport) {
  return async (fileName: string, content: string) => {
    const [drive] = usb?.drives() ?? [];
    if (usb && drive) {
      const savedTo = usb.save(drive, fileName, content);
      logger.info('export saved on a USB stick', { fileName });
      return { fileName, content, delivery: 'usb' as const, savedTo };
    }
    if (!host.saveFile) return { fileName, content, delivery: 'download' as const };
    const savedTo = await host.saveFile(fileName, content);
    if (savedTo) logger.info('export saved', { fileName });
    return savedTo ? { fileName, content, delivery: 'saved' as const, savedTo } : { fileName, content, delivery: 'cancelled' as const };
  };
}

export type ExportDelivery = ReturnType<typeof createExportDelivery>;
