import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The shipped unit and entry (build/linux in a checkout, which is where kioskctl runs from). */
export const SHIPPED_AUTOSTART_DIR = path.resolve(import.meta.dirname, '../../build/linux');

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

/** Copies the unit and the entry into place; running it again rewrites them with the shipped text. */
export function enableAutostart(home: string, sourceDir = SHIPPED_AUTOSTART_DIR): AutostartFile[] {
  for (const { name, target } of targets(home)) {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(sourceDir, name), target);
  }
  return autostartStatus(home);
}

/** Removes what enable installed; files already gone are fine. */
export function disableAutostart(home: string): AutostartFile[] {
  for (const { target } of targets(home)) fs.rmSync(target, { force: true });
  return autostartStatus(home);
}
