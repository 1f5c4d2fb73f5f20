import type { Logger } from '../logging/logger.std.ts';

export interface ManagerHost {
  restart(): void;
  quit(): void;
  /** Saves an export where the manager chooses; the path, or null when they cancelled. Absent: the renderer downloads it. */
  saveFile?(fileName: string, content: string): Promise<string | null>;
  /** Loads the kiosk's page(s) afresh, keeping the process (the fleet's `reload`). Absent: `unsupported`. */
  reload?(): void;
  /** The kiosk window as a PNG (the fleet's `screenshot`, on the attract screen only). Absent: `unsupported`. */
  screenshot?(): Promise<Buffer>;
}

/** Hands an export out: saved where the manager picks when the host can, else for the renderer to download. */
export function createExportDelivery(host: ManagerHost, logger: Logger) {
  return async (fileName: string, content: string) => {
    if (!host.saveFile) return { fileName, content, delivery: 'download' as const };
    const savedTo = await host.saveFile(fileName, content);
    if (savedTo) logger.info('export saved', { fileName });
    return savedTo ? { fileName, content, delivery: 'saved' as const, savedTo } : { fileName, content, delivery: 'cancelled' as const };
  };
}

export type ExportDelivery = ReturnType<typeof createExportDelivery>;
