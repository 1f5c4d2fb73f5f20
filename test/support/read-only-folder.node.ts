import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * Makes `dir` read-only for this process, as a read-only mount or someone else's folder would be,
 * and returns the undo. Root ignores permission bits, so as root the folder is made immutable.
 */
export function makeFolderReadOnly(dir: string): () => void {
  if (process.getuid?.() === 0) {
    execFileSync('chattr', ['+i', dir]);
    return () => execFileSync('chattr', ['-i', dir]);
  }
  fs.chmodSync(dir, 0o500);
  return () => fs.chmodSync(dir, 0o700);
}
