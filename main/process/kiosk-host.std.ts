/**
 * What the host running the kiosk (the Electron window or the browser host) does for the features
 * and surfaces: restart and quit, and what only some hosts can (save a file, reload, a screenshot).
 */
export interface KioskHost {
  restart(): void;
  quit(): void;
  /** Saves an export where the manager chooses; the path, or null when they cancelled. Absent: the renderer downloads it. */
  saveFile?(fileName: string, content: string): Promise<string | null>;
  /** Loads the kiosk's page(s) afresh, keeping the process (the fleet's `reload`). Absent: `unsupported`. */
  reload?(): void;
  /** The kiosk window as a PNG (the fleet's `screenshot`, on the attract screen only). Absent: `unsupported`. */
  screenshot?(): Promise<Buffer>;
}
