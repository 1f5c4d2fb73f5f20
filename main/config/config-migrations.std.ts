import { CONFIG_SCHEMA_VERSION } from '../../common/config-schema.std.ts';

type RawConfig = Record<string, unknown>;

/**
 * Migrations keyed by the version they produce: `migrations[n]` turns a version n-1 file into
 * version n. Files without `schemaVersion` predate versioning and count as version 1.
 */
export type ConfigMigrations = Record<number, (raw: RawConfig) => RawConfig>;

export const configMigrations: ConfigMigrations = {
  /** Version 2: one `kiosk.mode` became the ordered list `kiosk.modes`. */
  2: (raw) => (isTree(raw.kiosk) ? { ...raw, kiosk: modesFromMode(raw.kiosk) } : raw),
};

/** `{ mode: X }` → `{ modes: [X] }`; a kiosk section without a mode is left for the defaults. */
function modesFromMode(kiosk: RawConfig): RawConfig {
  const { mode, ...rest } = kiosk;
  return mode === undefined ? rest : { ...rest, modes: [mode] };
}

function isTree(value: unknown): value is RawConfig {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function migrateConfig(
  raw: RawConfig,
  migrations: ConfigMigrations,
  targetVersion = CONFIG_SCHEMA_VERSION,
): RawConfig {
  const from = typeof raw.schemaVersion === 'number' ? raw.schemaVersion : 1;
  if (from > targetVersion) {
    throw new Error(`config was written by a newer kiosk (version ${from}, this one reads ${targetVersion})`);
  }
  let migrated = raw;
  for (let version = from + 1; version <= targetVersion; version += 1) {
    const step = migrations[version];
    if (!step) throw new Error(`no migration to config version ${version}`);
    migrated = { ...step(migrated), schemaVersion: version };
  }
  return migrated;
}
