import path from 'node:path';

/**
 * Every file and folder the kiosk keeps in its data folder, by name: the one place that spells
 * them, for the services that read and write them, for kioskctl and for the tests.
 */
export const DATA_FILES = {
  /** The settings (ConfigStore); kioskctl reads and writes them through the store too. */
  config: 'config.json',
  /** One kiosk per data folder (lockDataDir). */
  lock: 'kiosk.lock',
  /** The running kiosk's socket for kioskctl (main/control/): a Z goes through the one writer. */
  controlSocket: 'kioskctl.sock',
  /** Vouchers locked and not yet settled: released or reconciled at the next start. */
  voucherLocks: 'voucher-locks.json',
  /** Every event of every redemption, in shifts closed by Z reports (SQLite, with its -wal and -shm). */
  ledger: 'ledger.sqlite',
  /** The slips' previews (SVG), newest kept: what a preview printer printed, and the last slip of a real one. */
  slips: 'slips',
  /** The platform's error counts and outage time, kept across restarts. */
  healthCounters: 'health-counters.json',
  /** Failed PIN attempts and the lockout they earned, kept across restarts. */
  managerLockout: 'manager-lockout.json',
  /** A fresh kiosk's setup code (#34 §2): the wizard opens only with it. */
  setupCode: 'setup-code',
  /** The portal origins learned for the platform's frame. */
  portalOrigins: 'portal-origins.json',
  /** Fleet commands already answered, so a replayed one is not run twice. */
  fleetCommands: 'fleet-commands.json',
  /** The settings the fleet's desired settings changed, with what each was before: they go back when no layer asks them. */
  fleetSettingsHeld: 'fleet-settings-held.json',
  /** What the fleet link last announced to Home Assistant's discovery. */
  fleetDiscovery: 'fleet-discovery.json',
  /** The running kiosk's UpdateState (kioskctl update status). */
  updateState: 'update-state.json',
  /** The update service's markers and kept installers (update-files.node.ts names what is inside). */
  updates: 'updates',
  /** The kiosk's log files (kiosk.log and its rotations). */
  logs: 'logs',
  /** The embedded sandbox's own data folder (demo mode). */
  sandbox: 'sandbox',
  /** Rewritten by every process that changes the kiosk's keychain entries: the running kiosk then reads them again (SecretCache). */
  secretsChanged: 'secrets-changed',
  /** The browser host's Chromium profile. */
  chromiumProfile: 'chromium-profile',
} as const;

export type DataFileName = keyof typeof DATA_FILES;

/** The paths of DATA_FILES inside `dataDir`. */
export function dataFiles(dataDir: string): Record<DataFileName, string> {
  return Object.fromEntries(Object.entries(DATA_FILES).map(([name, file]) => [name, path.join(dataDir, file)])) as Record<DataFileName, string>;
}
