import os from 'node:os';
import path from 'node:path';

/**
 * The data folder used when neither Electron's userData nor `--data` names one: the same place
 * Electron would pick, so the CLI tools and the app agree on one config.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const home = os.homedir();
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Loyalty Kiosk');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Loyalty Kiosk');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Loyalty Kiosk');
}
