import type { z } from 'zod';
import { defaultConfig, KioskConfig } from '../../common/config-schema.std.ts';
import { leafKeys, readDotted, withDotted } from '../../common/dotted-keys.std.ts';
import { CONFIG_KEYS } from './config-keys.std.ts';

export interface RecoveredConfig {
  config: KioskConfig;
  /** Settings whose value the schema refused: each now holds its default. */
  invalid: Array<{ key: string; reason: string }>;
  /** Entries of the file that name no setting (a typo, a newer kiosk's key, a branch that is no object). */
  ignored: string[];
}

/**
 * A settings tree read from disk, made valid one key at a time: every key that validates is kept,
 * only the ones the schema refuses fall back to their defaults. One bad value (a typo, a value
 * from an older range) must never take the PIN hash or the platform settings with it.
 */
export function recoverConfig(raw: Record<string, unknown>): RecoveredConfig {
  const values: Record<string, unknown> = {};
  for (const key of CONFIG_KEYS) {
    const value = readDotted(raw, key);
    if (value !== undefined) values[key] = value;
  }
  const ignored = leafKeys(raw).filter((entry) => entry !== 'schemaVersion' && !CONFIG_KEYS.some((key) => entry === key || entry.startsWith(`${key}.`)));
  const invalid: RecoveredConfig['invalid'] = [];
  // Each round drops at least one key, so this ends; with no keys left the defaults parse.
  for (;;) {
    const result = KioskConfig.safeParse(withDotted(defaultConfig(), values));
    if (result.success) return { config: result.data, invalid, ignored };
    for (const { key, reason } of blamedKeys(result.error, Object.keys(values))) {
      invalid.push({ key, reason });
      delete values[key];
    }
  }
}

// A JSON key and a scalar value after it, wherever it stands in the text.
const SCALAR_ENTRY = /"(\w+)"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null)/g;

/**
 * The settings still legible in a file that is no JSON (cut short, a torn write): each scalar whose
 * name ends exactly one setting's key, first occurrence. recoverConfig then checks them one by one,
 * so a truncated file keeps its PIN hash and platform address whenever their lines survived.
 */
export function salvageSettings(text: string): Record<string, unknown> {
  const byLeaf = new Map<string, string[]>();
  for (const key of CONFIG_KEYS) byLeaf.set(leafOf(key), [...(byLeaf.get(leafOf(key)) ?? []), key]);
  const values: Record<string, unknown> = {};
  for (const [, leaf, value] of text.matchAll(SCALAR_ENTRY)) {
    const keys = byLeaf.get(leaf!);
    if (keys?.length !== 1 || Object.hasOwn(values, keys[0]!)) continue;
    values[keys[0]!] = JSON.parse(value!) as unknown;
  }
  return withDotted({}, values) as Record<string, unknown>;
}

const leafOf = (key: string) => key.slice(key.lastIndexOf('.') + 1);

/**
 * The given keys an issue points at. A rule across keys (the default language must be enabled)
 * can fail on a key that already holds its default: then its given siblings are to blame.
 */
function blamedKeys(error: z.ZodError, given: string[]): Array<{ key: string; reason: string }> {
  const blamed = new Map<string, string>();
  for (const issue of error.issues) {
    const at = issue.path.join('.');
    const key = CONFIG_KEYS.find((name) => at === name || at.startsWith(`${name}.`));
    const reason = key && at !== key ? `${at.slice(key.length + 1)}: ${issue.message}` : issue.message;
    if (key && given.includes(key)) {
      blamed.set(key, reason);
      continue;
    }
    const branch = key ? key.slice(0, key.lastIndexOf('.')) : at;
    const siblings = given.filter((name) => branch === '' || name.startsWith(`${branch}.`));
    for (const name of siblings.length > 0 ? siblings : given) blamed.set(name, `${key ?? at}: ${issue.message}`);
  }
  return [...blamed].map(([key, reason]) => ({ key, reason }));
}
