import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildOutput } from '../paths/build-output.node.ts';

/** The shipped unit and entry (build/linux in a checkout, which is where kioskctl runs from, from source or bundled). */
export const SHIPPED_AUTOSTART_DIR = path.join(buildOutput.root, 'build', 'linux');

const UNIT = 'loyalty-kiosk.service';
const DESKTOP_ENTRY = 'loyalty-kiosk.desktop';

export interface AutostartFile {
  name: string;
  /** Where it is installed for this user. */
  target: string;
  installed: boolean;
}

/** $XDG_CONFIG_HOME, or ~/.config when unset or not absolute (the XDG base directory rule). */
export function configHome(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.XDG_CONFIG_HOME;
  return home && path.isAbsolute(home) ? home : path.join(os.homedir(), '.config');
}

function targets(home: string): Array<{ name: string; target: string }> {
  return [
    { name: UNIT, target: path.join(home, 'systemd', 'user', UNIT) },
    { name: DESKTOP_ENTRY, target: path.join(home, 'autostart', DESKTOP_ENTRY) },
  ];
}

export function autostartStatus(home: string): AutostartFile[] {
  return targets(home).map((file) => ({ ...file, installed: fs.existsSync(file.target) }));
}

/** Where the shipped files are and what they start: the checkout's by default, or an installed app's. */
export interface AutostartSource {
  /** The folder holding the shipped unit and entry. */
  sourceDir: string;
  /** The executable they start, in place of the deb's /usr/bin/loyalty-kiosk; null keeps the shipped line. */
  executable: string | null;
}

const CHECKOUT_SOURCE: AutostartSource = { sourceDir: SHIPPED_AUTOSTART_DIR, executable: null };

/**
 * The packaged app's own files and executable: electron-builder's extraFiles put the files in
 * `<install dir>/autostart/`, beside the executable. An AppImage runs from a mount that changes at
 * every start, so the units must start the AppImage file itself ($APPIMAGE), not what is inside it.
 */
export function packagedAutostartSource(execPath: string, env: NodeJS.ProcessEnv = process.env): AutostartSource {
  return { sourceDir: path.join(path.dirname(execPath), 'autostart'), executable: env.APPIMAGE || execPath };
}

/** The program a checkout's shipped unit starts: its ExecStart, the deb's /usr/bin/loyalty-kiosk. */
export function shippedUnitExecutable(): string {
  const shipped = fs.readFileSync(path.join(CHECKOUT_SOURCE.sourceDir, UNIT), 'utf8');
  return /^ExecStart=(\S+)/m.exec(shipped)?.[1] ?? '';
}

/** Copies the unit and the entry into place; running it again rewrites them with the shipped text. */
export function enableAutostart(home: string, source: AutostartSource = CHECKOUT_SOURCE): AutostartFile[] {
  for (const { name, target } of targets(home)) {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const shipped = fs.readFileSync(path.join(source.sourceDir, name), 'utf8');
    fs.writeFileSync(target, source.executable === null ? shipped : startingExecutable(shipped, source.executable));
  }
  return autostartStatus(home);
}

/**
 * The unit's ExecStart= and the entry's Exec= pointed at the executable, double-quoted: both
 * systemd and the desktop entry spec split an unquoted path at its spaces (/opt/Loyalty Kiosk/...).
 * Each has its own escapes: systemd expands % and $ (doubled to stay literal), the entry spec
 * wants backslash, quote, backtick and $ backslashed and % doubled.
 */
export function startingExecutable(text: string, executable: string): string {
  const forUnit = executable.replace(/[\\"]/g, (char) => `\\${char}`).replace(/[%$]/g, (char) => char + char);
  const forEntry = executable.replace(/[\\"`$]/g, (char) => `\\${char}`).replace(/%/g, '%%');
  return text
    .replace(/^ExecStart=\S+/m, () => `ExecStart="${forUnit}"`)
    .replace(/^Exec=\S+/m, () => `Exec="${forEntry}"`);
}

/** Removes what enable installed; files already gone are fine. */
export function disableAutostart(home: string): AutostartFile[] {
  for (const { target } of targets(home)) fs.rmSync(target, { force: true });
  return autostartStatus(home);
}
