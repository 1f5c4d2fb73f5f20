import fs from 'node:fs';
import path from 'node:path';

/** Where desktop automounters (udisks) and usbmount put a USB stick. */
const REMOVABLE_ROOTS = ['/media', '/run/media'];

/** A mount point as /proc/self/mounts writes it: spaces and tabs as octal escapes. */
const unescapeMount = (field: string) => field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));

/**
 * The USB sticks plugged in now that this user can write to: mount points under /media or
 * /run/media. A manager's export goes there, where they can take it away, not onto the kiosk's disk.
 */
export function usbDrives({ mountsFile = '/proc/self/mounts', roots = REMOVABLE_ROOTS } = {}): string[] {
  let mounts: string;
  try {
    mounts = fs.readFileSync(mountsFile, 'utf8');
  } catch {
    return [];
  }
  return mounts
    .split('\n')
    .map((line) => unescapeMount(line.split(' ')[1] ?? ''))
    .filter((mountPoint) => roots.some((root) => mountPoint.startsWith(`${root}/`)))
    .filter((mountPoint) => {
      try {
        fs.accessSync(mountPoint, fs.constants.W_OK);
        return true;
      } catch {
        return false;
      }
    });
}

/** Writes an export onto a stick and flushes it, so it can be pulled out as soon as the console says so. */
export function saveOnUsbDrive(drive: string, fileName: string, content: string): string {
  const file = path.join(drive, path.basename(fileName));
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeFileSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  // And its folder entry, which FAT keeps apart from the file's data.
  const dir = fs.openSync(drive, 'r');
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
  return file;
}
