import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { type FailedVersion, readKeptInstaller, updateFiles, writeJsonFile } from './update-files.node.ts';

export type RollbackOutcome =
  /** The AppImage was put back in place: the next start runs the previous version. */
  | { kind: 'replaced'; version: string; target: string }
  /** A package the OS installs (deb, exe, dmg), with admin rights: the command that does it. */
  | { kind: 'command'; version: string; command: string };

export class NoPreviousInstaller extends Error {}

/** How each kept package is installed by hand; electron-builder's NSIS installer takes /S (silent). */
function installCommand(file: string): string {
  const quoted = JSON.stringify(file);
  if (file.endsWith('.deb')) return `sudo apt install --allow-downgrades ${quoted}`;
  if (file.endsWith('.exe')) return `${quoted} /S`;
  return `open ${quoted}`;
}

/**
 * Goes back to the installer kept before the last update. The version rolled back from is
 * recorded as failed first, so the kiosk does not take it from the feed again. An AppImage is
 * replaced in place (a running kiosk keeps its open copy until it restarts); other packages need
 * the OS installer and admin rights, so the command is returned for the admin to run.
 */
export async function rollbackToPrevious(options: { dataDir: string; runningVersion: string; appImage: string | null; now?: () => number }): Promise<RollbackOutcome> {
  const files = updateFiles(options.dataDir);
  const previous = readKeptInstaller(files.previousDir);
  if (!previous || !fs.existsSync(previous.file)) {
    throw new NoPreviousInstaller(`no previous installer is kept in ${files.previousDir}: the kiosk keeps one when it installs an update`);
  }
  if (previous.version !== options.runningVersion) {
    const failed: FailedVersion = { version: options.runningVersion, reason: 'rolled back by kioskctl', at: (options.now ?? Date.now)() };
    await writeJsonFile(files.failedVersion, failed);
  }
  await fsp.rm(files.installed, { force: true });
  const target = previous.replaces === null ? null : (options.appImage ?? previous.replaces);
  if (target === null) return { kind: 'command', version: previous.version, command: installCommand(previous.file) };
  // Copied beside the target and renamed over it: the AppImage is never half written.
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.rollback`);
  await fsp.copyFile(previous.file, temp);
  await fsp.chmod(temp, 0o755);
  await fsp.rename(temp, target);
  return { kind: 'replaced', version: previous.version, target };
}
