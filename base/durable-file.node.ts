import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { keyedQueue } from './queue.std.ts';

/** Owner only: these files hold a kiosk's settings, PIN hash, voucher locks and demo credentials. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * A temp file is always new, never opened through a link: one planted under the temp name (a
 * symbolic link to a file elsewhere) must not be written through, nor renamed over the file.
 */
const TEMP_OPEN_FLAGS = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);

/** One write of a file at a time in this process: the writes of one file share its temp name. */
const writesByFile = keyedQueue<string>();

/**
 * Replaces `file` with `text` so that a crash at any moment leaves either the old or the new
 * content, never a mix: write a temp file, fsync it, rename it over, fsync the directory (so
 * the rename itself survives a power cut). Resolves only once all of that is on disk. Writes of
 * the same file run one after the other, in the order they were asked for.
 */
export function writeFileDurably(file: string, text: string, mode = PRIVATE_FILE_MODE): Promise<void> {
  return writesByFile.run(path.resolve(file), () => replaceFile(file, text, mode));
}

async function replaceFile(file: string, text: string, mode: number): Promise<void> {
  const temp = `${file}.tmp`;
  // A temp file a crash left behind, or a link planted in its place: removed, never followed.
  await fsp.rm(temp, { force: true });
  const handle = await fsp.open(temp, TEMP_OPEN_FLAGS, mode);
  try {
    // The umask may have taken bits off the mode asked for.
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
  fs.rmSync(temp, { force: true });
  const fd = fs.openSync(temp, TEMP_OPEN_FLAGS, mode);
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
