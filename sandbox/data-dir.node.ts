import os from 'node:os';
import path from 'node:path';

/**
 * Where the CLI keeps its state when no `--data` is given: a `sandbox` folder in the user's data
 * directory, the same place on every run so credentials and state carry over.
 */
export function defaultSandboxDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  return path.join(userDataRoot(env, platform, home), 'loyalty-kiosk', 'sandbox');
}

function userDataRoot(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string {
  if (platform === 'win32') return env.APPDATA || path.join(home, 'AppData', 'Roaming');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support');
  return env.XDG_DATA_HOME || path.join(home, '.local', 'share');
}
