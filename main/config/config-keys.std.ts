import { defaultConfig, KioskConfig } from '../../common/config-schema.std.ts';
import { leafKeys, readDotted, withDotted } from '../../common/dotted-keys.std.ts';

/** Every settable dotted key (`session.facing_mode`, ...), derived from the schema's defaults. */
export const CONFIG_KEYS: readonly string[] = leafKeys(defaultConfig()).filter((key) => key !== 'schemaVersion');

/** Keys only IT sets (kioskctl, provisioning, the fleet): the console, behind a store's PIN, may not. */
export const IT_ONLY_KEYS: readonly string[] = ['console.platformAdmin'];

/**
 * Why the console may not apply `values`, or null: an IT-only key set to a value other than its
 * current one (an export's own value sent back changes nothing, so it passes).
 */
export function itOnlyRefusal(values: Readonly<Record<string, unknown>>, current: (key: string) => unknown): string | null {
  const changed = Object.keys(values).filter((key) => IT_ONLY_KEYS.includes(key) && JSON.stringify(values[key]) !== JSON.stringify(current(key)));
  return changed.length > 0 ? `set by IT only (kioskctl, provisioning or the fleet): ${changed.join(', ')}` : null;
}

/**
 * Keys the fleet broker may not set, by a command or as desired settings: the manager's PIN
 * (whoever could publish would own the console) and the fleet link itself (a broker that moves the
 * kiosk to another broker, or cuts it off).
 */
const FLEET_KEPT_SECTIONS = ['manager', 'fleet'];
export const keptFromFleet = (key: string) => FLEET_KEPT_SECTIONS.some((section) => key === section || key.startsWith(`${section}.`));

export function isConfigKey(key: string): boolean {
  return CONFIG_KEYS.includes(key);
}


/**
 * The values command-line text may mean for `key`, most likely first: JSON where it parses
 * (`9600`, `true`, `null`, `["en","nl"]`), a comma list for list keys, and the plain text.
 * The caller keeps the first one the schema accepts, so `api.shopUuid 123` stays text.
 */
export function candidateValues(config: KioskConfig, key: string, text: string): unknown[] {
  const candidates: unknown[] = [];
  try {
    candidates.push(JSON.parse(text));
  } catch {
    if (Array.isArray(readDotted(config, key))) {
      candidates.push(text.split(',').map((item) => item.trim()).filter(Boolean));
    }
  }
  candidates.push(text);
  return candidates;
}

/**
 * The value command-line text means for `key`, as the schema takes it on its own (checked over the
 * defaults: a kiosk checks it again with its own settings), or null when the schema takes none.
 */
export function valueFromText(key: string, text: string): { value: unknown } | null {
  const defaults = defaultConfig();
  const value = candidateValues(defaults, key, text).find((candidate) => KioskConfig.safeParse(withDotted(defaults, { [key]: candidate })).success);
  return value === undefined ? null : { value };
}
