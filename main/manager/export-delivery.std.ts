import type { Logger } from '../logging/logger.std.ts';
import type { KioskHost } from '../process/kiosk-host.std.ts';

/** Hands an export out: saved where the manager picks when the host can, else for the renderer to download. */
export function createExportDelivery(host: Pick<KioskHost, 'saveFile'>, logger: Logger) {
  return async (fileName: string, content: string) => {
    if (!host.saveFile) return { fileName, content, delivery: 'download' as const };
    const savedTo = await host.saveFile(fileName, content);
    if (savedTo) logger.info('export saved', { fileName });
    return savedTo ? { fileName, content, delivery: 'saved' as const, savedTo } : { fileName, content, delivery: 'cancelled' as const };
  };
}

export type ExportDelivery = ReturnType<typeof createExportDelivery>;
