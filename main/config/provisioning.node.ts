import fs from 'node:fs';
import path from 'node:path';
import { defaultConfig, KioskConfig } from '../../common/config-schema.std.ts';
import type { Logger } from '../logging/logger.std.ts';
import { leafKeys, readDotted, withDotted } from '../../common/dotted-keys.std.ts';
import { CONFIG_KEYS } from './config-keys.std.ts';
import { configMigrations, migrateConfig } from './config-migrations.std.ts';
import { ConfigStore } from './config-store.node.ts';

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

/** What a provisioning file holds, as the kiosk takes it. */
export interface Provisioning {
  /**
   * The keys it sets and locks, as dotted key → value: all of them when the file is valid; when it
   * is not, only its fleet.* keys, if they are valid on their own (so the kiosk still joins its
   * broker and reports the problem there); nothing else of an invalid file applies.
   */
  locked: Record<string, unknown>;
  /** Every problem, each named by its key where it has one (`key: why`); empty when the file is valid or missing. */
  problems: string[];
}

/** The fleet section: what an invalid file still applies, so the kiosk can say so on its broker. */
const isFleetKey = (key: string) => key.startsWith('fleet.');

/**
 * The file's keys, checked: a missing file sets nothing; an unreadable or invalid one is logged
 * loudly with every problem by key, and sets nothing but a valid fleet section, so a typo never
 * half-applies a store's settings.
 */
export function loadProvisioning(file: string, logger: Logger): Provisioning {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { locked: {}, problems: [] };
    return ignored(file, logger, { locked: {}, problems: [`unreadable: ${(error as Error).message}`] });
  }
  const checked = checkProvisioning(text);
  return checked.problems.length === 0 ? checked : ignored(file, logger, checked);
}

function ignored(file: string, logger: Logger, provisioning: Provisioning): Provisioning {
  const kept = Object.keys(provisioning.locked);
  logger.error(`provisioning file invalid; ignored${kept.length > 0 ? ' but for its fleet section' : ''}`, { event: 'provisioning.ignored', file, reason: provisioning.problems.join('; '), kept });
  return provisioning;
}

/** The keys it sets as dotted keys; what it would do on a kiosk, with every problem named by key. Pure: `kioskctl provision check` runs it too. */
export function checkProvisioning(text: string): Provisioning {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { locked: {}, problems: [`not JSON: ${(error as Error).message}`] };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { locked: {}, problems: ['not a JSON object of settings'] };
  // Written by hand and rarely revisited: a file in an older layout (kiosk.mode) reads as it did.
  const migrated = migrateConfig(raw as Record<string, unknown>, configMigrations);
  const unknown = leafKeys(migrated).filter((key) => key !== 'schemaVersion' && !CONFIG_KEYS.includes(key));
  const values = Object.fromEntries(CONFIG_KEYS.filter((key) => readDotted(migrated, key) !== undefined).map((key) => [key, readDotted(migrated, key)]));
  const problems = [...unknown.map((key) => `${key}: unknown setting`), ...schemaProblems(values)];
  if (problems.length === 0) return { locked: values, problems };
  const fleet = Object.fromEntries(Object.entries(values).filter(([key]) => isFleetKey(key)));
  return { locked: schemaProblems(fleet).length === 0 ? fleet : {}, problems };
}

/** What the schema says of `values` over the defaults, each as `key: why`. */
function schemaProblems(values: Record<string, unknown>): string[] {
  const checked = KioskConfig.safeParse(withDotted(defaultConfig(), values));
  return checked.success ? [] : checked.error.issues.map((issue) => `${issue.path.join('.') || '(the file)'}: ${issue.message}`);
}

/** The keys a valid file sets and locks; see loadProvisioning. */
export function readProvisioning(file: string, logger: Logger): Record<string, unknown> {
  return loadProvisioning(file, logger).locked;
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
  const { locked, problems } = loadProvisioning(provisioningFilePath(env), logger);
  return new ConfigStore({ dataDir, logger, readOnly, locked, provisioningProblems: problems });
}
