import fs from 'node:fs';
import path from 'node:path';
import { defaultConfig, KioskConfig } from '../../common/config-schema.std.ts';
import type { Logger } from '../logging/logger.std.ts';
import { leafKeys, readDotted, withDotted } from '../../common/dotted-keys.std.ts';
import { CONFIG_KEYS } from './config-keys.std.ts';
import { configMigrations, migrateConfig } from './config-migrations.std.ts';
import { ConfigStore, describeIssues } from './config-store.node.ts';

/**
 * Fleet provisioning: a JSON file at a system path, written by IT (config management, an image),
 * read at every start. The keys it sets are fixed: the console shows them read-only and kioskctl
 * refuses to change them. `KIOSK_PROVISIONING_FILE` points elsewhere (tests, unusual images).
 */
export function provisioningFilePath(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.KIOSK_PROVISIONING_FILE) return env.KIOSK_PROVISIONING_FILE;
  if (platform === 'win32') return path.join(env.ProgramData ?? 'C:\\ProgramData', 'LoyaltyKiosk', 'config.json');
  return '/etc/loyalty-kiosk/config.json';
}

/**
 * The keys the file sets, as dotted key → value. A file that is missing sets nothing; one that is
 * unreadable or invalid is logged loudly and ignored as a whole, so a typo never half-applies.
 */
export function readProvisioning(file: string, logger: Logger): Record<string, unknown> {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    logger.error('provisioning file unreadable; ignored', { event: 'provisioning.ignored', file, reason: String(error) });
    return {};
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    logger.error('provisioning file is not a JSON object of settings; ignored', { event: 'provisioning.ignored', file });
    return {};
  }
  // Written by hand and rarely revisited: a file in an older layout (kiosk.mode) reads as it did.
  raw = migrateConfig(raw as Record<string, unknown>, configMigrations);
  const unknown = leafKeys(raw).filter((key) => key !== 'schemaVersion' && !CONFIG_KEYS.includes(key));
  if (unknown.length > 0) {
    logger.error('provisioning file names unknown settings; ignored', { event: 'provisioning.ignored', file, unknown });
    return {};
  }
  const keys = CONFIG_KEYS.filter((key) => readDotted(raw, key) !== undefined);
  const checked = KioskConfig.safeParse(withDotted(defaultConfig(), Object.fromEntries(keys.map((key) => [key, readDotted(raw, key)]))));
  if (!checked.success) {
    logger.error('provisioning file invalid; ignored', { event: 'provisioning.ignored', file, reason: describeIssues(checked.error) });
    return {};
  }
  return Object.fromEntries(keys.map((key) => [key, readDotted(checked.data, key)]));
}

/**
 * The kiosk's settings with the provisioning file's keys applied and locked: what every tool opens.
 * `readOnly`: only to look (kioskctl config show, doctor): nothing is written, created or moved.
 */
export function openProvisionedConfig(
  dataDir: string,
  logger: Logger,
  { env = process.env, readOnly = false }: { env?: NodeJS.ProcessEnv; readOnly?: boolean } = {},
): ConfigStore {
  return new ConfigStore({ dataDir, logger, readOnly, locked: readProvisioning(provisioningFilePath(env), logger) });
}
