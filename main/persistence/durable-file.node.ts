import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Replaces `file` with `text` so that a crash at any moment leaves either the old or the new
 * content, never a mix: write a temp file, fsync it, rename it over, fsync the directory (so
 * the rename itself survives a power cut). Resolves only once all of that is on disk.
 */
export async function writeFileDurably(file: string, text: string, mode = 0o600): Promise<void> {
  const temp = `${file}.tmp`;
  const handle = await fs.open(temp, 'w', mode);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temp, file);
  await syncDirectory(path.dirname(file));
}

async function syncDirectory(dir: string): Promise<void> {
  // Windows cannot open a directory for fsync; NTFS makes the rename durable itself.
  if (process.platform === 'win32') return;
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
