import * as electron from 'electron';
import { runKioskctlProcess } from '../kioskctl/kioskctl-process.node.ts';
import { startKioskServices } from '../kiosk-services.node.ts';
import { startElectronKiosk } from './electron-kiosk.main.ts';
import { packagedUpdater } from './updater.main.ts';

// The Electron entry (dist/electron.main.js): the kiosk with this process's own parts.
startElectronKiosk({
  electron,
  argv: process.argv,
  env: process.env,
  execPath: process.execPath,
  platform: process.platform,
  startKioskServices,
  runKioskctlProcess,
  packagedUpdater,
});
