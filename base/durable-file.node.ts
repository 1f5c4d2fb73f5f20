import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

/** Owner only: these files hold a kiosk's settings, PIN hash, voucher locks and demo credentials. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Replaces `file` with `text` so that a crash at any moment leaves either the old or the new
 * content, never a mix: write a temp file, fsync it, rename it over, fsync the directory (so
 * the rename itself survives a power cut). Resolves only once all of that is on disk.
 */
export async function writeFileDurably(file: string, text: string, mode = PRIVATE_FILE_MODE): Promise<void> {
  const temp = `${file}.tmp`;
  const handle = await fsp.open(temp, 'w', mode);
  try {
    // A temp file a crash left behind keeps its old mode on open: set it every time.
    await handle.chmod(mode);
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fsp.rename(temp, file);
  await syncDirectory(path.dirname(file));
}

/** writeFileDurably for callers that must finish before they return (the settings file). */
export function writeFileDurablySync(file: string, text: string, mode = PRIVATE_FILE_MODE): void {
  // Its own temp name per process: kioskctl may write while the kiosk does.
  const temp = `${file}.tmp-${process.pid}`;
  const fd = fs.openSync(temp, 'w', mode);
  try {
    fs.fchmodSync(fd, mode);
    fs.writeFileSync(fd, text, 'utf8');
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
  // Windows cannot open a directory for fsync; NTFS makes the rename durable itself.
  if (process.platform === 'win32') return;
  const dirFd = fs.openSync(path.dirname(file), 'r');
  try {
    fs.fsyncSync(dirFd);
  } finally {
    fs.closeSync(dirFd);
  }
}

async function syncDirectory(dir: string): Promise<void> {
  // Windows cannot open a directory for fsync; NTFS makes the rename durable itself.
  if (process.platform === 'win32') return;
  const handle = await fsp.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
