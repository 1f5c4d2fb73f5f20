import fs from 'node:fs';

/**
 * Never through a link (ELOOP), and never waiting on a FIFO planted in the file's place: such a
 * file is refused, not read.
 */
const READ_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/**
 * A file as read: absent, refused (too large, a link, no regular file: what a damaged file would
 * get, with `reason` for the log), or its content, `bytes` exactly and as UTF-8 `text`.
 */
export type BoundedRead = { kind: 'missing' } | { kind: 'refused'; reason: string } | { kind: 'read'; bytes: Buffer; text: string };

/**
 * Reads `file` whole if it holds at most `maxBytes`; a larger one is refused by its size before
 * any of it is read, so no file in the data folder, however it was made, costs more than its bound.
 */
export function readBoundedFile(file: string, maxBytes: number): BoundedRead {
  let fd: number;
  try {
    fd = fs.openSync(file, READ_FLAGS);
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'ENOENT') return { kind: 'missing' };
    if (code === 'ELOOP') return { kind: 'refused', reason: 'a symbolic link' };
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { kind: 'refused', reason: 'not a regular file' };
    if (stat.size > maxBytes) return { kind: 'refused', reason: tooLarge(maxBytes) };
    // One byte more than it said: a file that grew since is seen to be larger than its size.
    const buffer = Buffer.alloc(stat.size + 1);
    let length = 0;
    while (length < buffer.length) {
      const got = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (got === 0) break;
      length += got;
    }
    if (length > stat.size) return { kind: 'refused', reason: length > maxBytes ? tooLarge(maxBytes) : 'grew while read' };
    const bytes = buffer.subarray(0, length);
    return { kind: 'read', bytes, text: bytes.toString('utf8') };
  } finally {
    fs.closeSync(fd);
  }
}

function tooLarge(maxBytes: number): string {
  return `too large (over ${maxBytes} bytes)`;
}
