import fsp from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { readBoundedFile } from '../../base/bounded-file.node.ts';
import { writeFileDurably } from '../../base/durable-file.node.ts';
import { UpdateState } from '../../common/update-state.std.ts';
import { dataFiles } from '../paths/data-files.node.ts';

/**
 * What the update service keeps in the data folder, for the next start and for kioskctl:
 *   update-state.json              the running kiosk's UpdateState (kioskctl update status)
 *   updates/installed.json         the version just installed by an update, until it reached attract
 *   updates/failed-version.json    a version that did not reach attract (or was rolled back): never again
 *   updates/previous/              the installer of the version before the last update (rollback)
 *   updates/installed/             the installer of the version the last update installed (deb, exe)
 */
export function updateFiles(dataDir: string) {
  const { updates, updateState } = dataFiles(dataDir);
  return {
    state: updateState,
    installed: path.join(updates, 'installed.json'),
    failedVersion: path.join(updates, 'failed-version.json'),
    previousDir: path.join(updates, 'previous'),
    installedDir: path.join(updates, 'installed'),
  };
}

/** An installer kept aside: whose version it is, and what kind of package (its extension). */
export const KeptInstaller = z.object({
  version: z.string(),
  file: z.string(),
  /** The AppImage it was copied from: the file rollback puts it back over. */
  replaces: z.string().nullable(),
});
export type KeptInstaller = z.infer<typeof KeptInstaller>;

export const InstalledMarker = z.object({ version: z.string(), fromVersion: z.string(), installedAt: z.number() });
export type InstalledMarker = z.infer<typeof InstalledMarker>;

export const FailedVersion = z.object({ version: z.string(), reason: z.string(), at: z.number() });
export type FailedVersion = z.infer<typeof FailedVersion>;

const MANIFEST = 'installer.json';

/** Far above what any of these files holds (a state, a marker, a manifest: a few hundred bytes). */
const MAX_FILE_BYTES = 64 * 1024;

/** A JSON file read through its schema; null when absent or not what it should be (larger than its bound, a link). */
export function readJsonFile<T>(file: string, schema: z.ZodType<T>): T | null {
  try {
    const read = readBoundedFile(file, MAX_FILE_BYTES);
    if (read.kind !== 'read') return null;
    const parsed = schema.safeParse(JSON.parse(read.text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function writeJsonFile(file: string, value: unknown): Promise<void> {
  await fsp.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFileDurably(file, `${JSON.stringify(value, null, 2)}\n`);
}

export function readUpdateState(dataDir: string): UpdateState | null {
  return readJsonFile(updateFiles(dataDir).state, UpdateState);
}

/** The manifest names the file inside its folder: the folder moves (installed/ becomes previous/). */
export function readKeptInstaller(dir: string): KeptInstaller | null {
  const kept = readJsonFile(path.join(dir, MANIFEST), KeptInstaller);
  return kept && { ...kept, file: path.join(dir, path.basename(kept.file)) };
}

/** Replaces `dir` with a copy of `source` and its manifest; a copy cut short leaves no manifest. */
async function keepInstaller(dir: string, source: string, manifest: Omit<KeptInstaller, 'file'>): Promise<void> {
  await fsp.rm(dir, { recursive: true, force: true });
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.basename(source);
  await fsp.copyFile(source, path.join(dir, file));
  await writeJsonFile(path.join(dir, MANIFEST), { ...manifest, file });
}

/**
 * Keeps the installers rollback needs, before the update is installed. An AppImage is its own
 * installer: the running one is copied aside as it is. Other packages (deb, exe, dmg) have the
 * installer the last update brought moved to previous/ (if it is the running version's) and the
 * new one kept in its place for next time.
 */
export async function keepInstallersForRollback(options: {
  dataDir: string;
  runningVersion: string;
  runningAppImage: string | null;
  downloaded: { version: string; file: string };
}): Promise<void> {
  const files = updateFiles(options.dataDir);
  if (options.runningAppImage) {
    await keepInstaller(files.previousDir, options.runningAppImage, { version: options.runningVersion, replaces: options.runningAppImage });
    return;
  }
  const installed = readKeptInstaller(files.installedDir);
  if (installed?.version === options.runningVersion) {
    await fsp.rm(files.previousDir, { recursive: true, force: true });
    await fsp.rename(files.installedDir, files.previousDir);
  }
  await keepInstaller(files.installedDir, options.downloaded.file, { version: options.downloaded.version, replaces: null });
}
