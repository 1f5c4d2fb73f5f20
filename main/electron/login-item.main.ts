import type { App } from 'electron';

/** The part of Electron's `app` this needs; only `openAtLogin` is read back. */
type LoginItemApp = Pick<App, 'setLoginItemSettings'> & { getLoginItemSettings(): { openAtLogin: boolean } };

/**
 * Start at login on Windows and macOS, through the OS's own login items. Linux has no such API in
 * Electron: there `kioskctl autostart enable` installs a systemd user unit, so this says so and does
 * nothing (returns false).
 */
export function setOpenAtLogin(app: LoginItemApp, platform: NodeJS.Platform, openAtLogin: boolean): boolean {
  if (platform !== 'win32' && platform !== 'darwin') return false;
  app.setLoginItemSettings({ openAtLogin });
  return app.getLoginItemSettings().openAtLogin === openAtLogin;
}
