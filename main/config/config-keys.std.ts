import { defaultConfig, KioskConfig } from '../../preload/config-schema.std.ts';

type Tree = Record<string, unknown>;

function isBranch(value: unknown): value is Tree {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every leaf of a settings tree as a dotted key; lists are leaves (`locale.enabled`). */
export function leafKeys(tree: unknown, prefix = ''): string[] {
  if (!isBranch(tree)) return [];
  return Object.entries(tree).flatMap(([name, value]) =>
    isBranch(value) ? leafKeys(value, `${prefix}${name}.`) : [`${prefix}${name}`],
  );
}

/** Every settable dotted key (`session.facing_mode`, ...), derived from the schema's defaults. */
export const CONFIG_KEYS: readonly string[] = leafKeys(defaultConfig()).filter((key) => key !== 'schemaVersion');

export function isConfigKey(key: string): boolean {
  return CONFIG_KEYS.includes(key);
}

export function readKey(config: KioskConfig, key: string): unknown {
  return key.split('.').reduce<unknown>((node, name) => (isBranch(node) ? node[name] : undefined), config);
}

/** A copy of `config` with one key replaced; the caller validates the result. */
export function withKey(config: KioskConfig, key: string, value: unknown): unknown {
  const copy = structuredClone(config) as Tree;
  const names = key.split('.');
  const last = names.pop() as string;
  let node = copy;
  for (const name of names) node = node[name] as Tree;
  node[last] = value;
  return copy;
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
    if (Array.isArray(readKey(config, key))) {
      candidates.push(text.split(',').map((item) => item.trim()).filter(Boolean));
    }
  }
  candidates.push(text);
  return candidates;
}
