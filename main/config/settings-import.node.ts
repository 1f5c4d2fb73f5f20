import { ConfigError, type ConfigStore } from './config-store.node.ts';
import { leafKeys, readDotted } from '../../common/dotted-keys.std.ts';
import { isConfigKey, itOnlyRefusal } from './config-keys.std.ts';
import { configMigrations, migrateConfig } from './config-migrations.std.ts';

/**
 * Applies a settings file (an export, a config.json, or part of one) as a whole: unknown keys, the
 * PIN and changes to provisioned keys are refused (and, from the console, changes to IT-only keys),
 * and nothing is written unless all of it is valid.
 * Returns the keys it set.
 */
export function importSettings(store: ConfigStore, text: string, { fromConsole = false } = {}): string[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`not JSON: ${(error as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError('expected a JSON object of settings');
  let migrated: Record<string, unknown>;
  try {
    migrated = migrateConfig(raw as Record<string, unknown>, configMigrations);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const keys = leafKeys(migrated).filter((key) => key !== 'schemaVersion');
  if (keys.length === 0) throw new ConfigError('the file sets no settings');
  if (keys.some((key) => key.startsWith('manager.'))) {
    throw new ConfigError('the PIN is never imported (a settings export never carries it); set it on its own');
  }
  const unknown = keys.filter((key) => !isConfigKey(key));
  if (unknown.length > 0) throw new ConfigError(`unknown settings: ${unknown.join(', ')}`);
  const values = Object.fromEntries(keys.map((key) => [key, readDotted(migrated, key)]));
  // An export from a provisioned kiosk carries its locked keys too; the same value changes nothing.
  const changed = keys.filter((key) => !store.isLocked(key) || JSON.stringify(values[key]) !== JSON.stringify(store.getKey(key)));
  const itOnly = fromConsole ? itOnlyRefusal(values, (key) => store.getKey(key)) : null;
  if (itOnly) throw new ConfigError(itOnly);
  const locked = changed.filter((key) => store.isLocked(key));
  if (locked.length > 0) throw new ConfigError(`set by the provisioning file, cannot be changed here: ${locked.join(', ')}`);
  store.setMany(Object.fromEntries(changed.map((key) => [key, values[key]])));
  return changed;
}
