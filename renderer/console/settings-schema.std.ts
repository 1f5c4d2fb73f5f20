import { z } from 'zod';
import { KioskConfig, SessionSettings, type KioskMode } from '../../common/config-schema.std.ts';

/**
 * The settings form is generated from the one config schema: a field's control and its allowed
 * values come from the schema itself, so the console cannot offer a value main would refuse.
 */

/** The settings as the console sees and saves them: the config without the PIN hash. */
export const ConsoleConfig = KioskConfig.omit({ manager: true });

export type Choice = string | number;

export type FieldKind =
  | { kind: 'choice'; choices: readonly Choice[] }
  | { kind: 'toggle' }
  | { kind: 'number'; min: number; max: number }
  | { kind: 'text'; maxLength: number | null }
  | { kind: 'list'; choices: readonly Choice[] };

/** The portal-session settings, in the API's order. */
export const SESSION_KEYS: readonly string[] = Object.keys(SessionSettings.shape).map((name) => `session.${name}`);

/** Session settings main sends in one mode only (its create body alone has them): elsewhere they do nothing. */
const SESSION_KEY_MODE: Readonly<Record<string, KioskMode>> = { 'session.allow_multiple_giftcards': 'redeem-giftcards' };

/** The session settings that matter for `modes` (the modes as currently chosen in the form). */
export function sessionKeysFor(modes: unknown): readonly string[] {
  const chosen: readonly unknown[] = Array.isArray(modes) ? modes : [];
  return SESSION_KEYS.filter((key) => {
    const only = SESSION_KEY_MODE[key];
    return only === undefined || chosen.includes(only);
  });
}

type Schema = z.core.$ZodType;

/** Strips what does not change a field's control: defaults, optional, nullable. */
function bare(schema: Schema): Schema {
  const def = schema._zod.def as { type: string; innerType?: Schema };
  return def.innerType && ['default', 'prefault', 'optional', 'nullable'].includes(def.type) ? bare(def.innerType) : schema;
}

/** The schema of one dotted key (`session.facing_mode`), defaults and all. */
function schemaOf(key: string): Schema {
  let schema: Schema = ConsoleConfig;
  for (const name of key.split('.')) {
    const shape = (bare(schema) as z.ZodObject).shape as Record<string, Schema> | undefined;
    const next = shape?.[name];
    if (!next) throw new Error(`no setting ${key}`);
    schema = next;
  }
  return schema;
}

/** The values a schema allows when it is a closed set (enum, literals, union of literals), else null. */
function choicesOf(schema: Schema): readonly Choice[] | null {
  const inner = bare(schema);
  if (inner instanceof z.ZodEnum) return inner.options as Choice[];
  if (inner instanceof z.ZodLiteral) return [...inner.values] as Choice[];
  if (inner instanceof z.ZodUnion) {
    const options = (inner.options as Schema[]).map(choicesOf);
    return options.every((choices) => choices !== null) ? options.flat() : null;
  }
  return null;
}

/** Whether `key` may be left empty (null): a field cleared by the manager then saves null, not "". */
export function isNullable(key: string): boolean {
  let schema = schemaOf(key);
  for (;;) {
    const def = schema._zod.def as { type: string; innerType?: Schema };
    if (def.type === 'nullable') return true;
    if (!def.innerType) return false;
    schema = def.innerType;
  }
}

/** Which control edits `key`, read from its schema. */
export function fieldKind(key: string): FieldKind {
  const schema = bare(schemaOf(key));
  const choices = choicesOf(schema);
  if (choices) return { kind: 'choice', choices };
  if (schema instanceof z.ZodBoolean) return { kind: 'toggle' };
  if (schema instanceof z.ZodNumber) return { kind: 'number', min: schema.minValue ?? 0, max: schema.maxValue ?? Number.MAX_SAFE_INTEGER };
  if (schema instanceof z.ZodString) return { kind: 'text', maxLength: schema.maxLength };
  if (schema instanceof z.ZodArray) {
    const items = choicesOf(schema.element as Schema);
    if (items) return { kind: 'list', choices: items };
  }
  throw new Error(`no control for the setting ${key}`);
}
