import { app } from 'electron';
import { autoUpdater } from 'electron-updater';
import type { Updater } from '../update/update-service.node.ts';

/**
 * electron-updater's updater for the package the kiosk was installed from (AppImage, deb, NSIS,
 * dmg), or null for an unpackaged app (npm start): there is no installed app to replace then.
 */
export function packagedUpdater(): Updater | null {
  return app.isPackaged ? autoUpdater : null;
}
