import fs from 'node:fs';

/**
 * Whether `fd` writes to the systemd journal, as under the kiosk's unit. systemd names the stream it
 * gave in JOURNAL_STREAM (device:inode); only a descriptor with that device and inode is it (a pipe
 * to a child of the unit is not). The journal is read by more than the kiosk's user (adm,
 * systemd-journal, root): the page's token and the setup code never go there.
 */
export function writesToJournal(fd: number, env: NodeJS.ProcessEnv = process.env): boolean {
  const stream = /^(\d+):(\d+)$/.exec(env.JOURNAL_STREAM ?? '');
  if (!stream) return false;
  try {
    const { dev, ino } = fs.fstatSync(fd, { bigint: true });
    return dev === BigInt(stream[1]!) && ino === BigInt(stream[2]!);
  } catch {
    return false;
  }
}
