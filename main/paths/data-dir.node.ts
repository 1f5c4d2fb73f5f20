import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The data folder used when neither Electron's userData nor `--data` names one: the same place
 * Electron would pick, so the CLI tools and the app agree on one config.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const home = os.homedir();
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Loyalty Kiosk');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Loyalty Kiosk');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Loyalty Kiosk');
}

/** Owner only: the data folder holds the settings, the PIN hash, voucher locks and demo credentials. */
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Creates the data folder owner-only, and takes group and other access away from one an older
 * kiosk made; the owner's own bits are left as they are (a read-only folder stays read-only).
 */
export function ensurePrivateDataDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const { mode } = fs.statSync(dir);
  if ((mode & 0o077) !== 0) fs.chmodSync(dir, mode & PRIVATE_DIR_MODE);
}

/** What the file system says when a folder cannot hold the kiosk's files. */
const UNWRITABLE_FOLDER_CODES = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST', 'ENOSPC', 'EDQUOT']);

/** The error code when `error` says a folder cannot be written (read-only, someone else's, full); else null. */
export function folderWriteFailure(error: unknown): string | null {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && UNWRITABLE_FOLDER_CODES.has(code) ? code : null;
}
