import { z } from 'zod';

/**
 * Building blocks shared by every area of the wire format. Response schemas are loose (the
 * platform may add fields at any time); request schemas are strict (the sandbox rejects what the
 * platform would not accept).
 */

/** Request side: any 8-4-4-4-12 hex id, so hand-made fixture uuids pass as well as v4 ones. */
export const Uuid = z.guid();

/**
 * Request side: a whole number in a query string. The wire carries text, and only decimal digits
 * read as a number: "", "0x1f", "1e2" and " 5" are refused (z.coerce would read 0, 31, 100, 5).
 * Callers of the typed client pass a number.
 */
export function queryInteger<Schema extends z.ZodType<number | undefined>>(schema: Schema) {
  return z.preprocess<unknown, Schema, z.input<Schema>>((value, context) => {
    if (typeof value !== 'string') return value;
    if (/^\d+$/.test(value)) return Number(value);
    context.addIssue({ code: 'custom', message: 'Expected a whole number in decimal digits.' });
    return value;
  }, schema);
}

/** Request side: ISO 8601 date-time; with an offset or Z, or without one (read as UTC). */
export const IsoDateTime = z.iso.datetime({ offset: true, local: true });

/** Response side: timestamps arrive as ISO 8601 strings with an offset; kept as text. */
export const Timestamp = z.string().describe('ISO 8601 date-time with a UTC offset');

/** Single-resource answers carry `meta: []`. */
export const EmptyMeta = z.tuple([]).describe('Always an empty array for single resources');

/** `{data, meta}`: the envelope around every answer except the reward attribute create answer. */
export function envelope<Data extends z.ZodType>(data: Data) {
  return z.looseObject({ data, meta: EmptyMeta });
}

/**
 * A key-value map the platform serialises from a PHP array, so an empty map arrives as `[]`.
 * Both shapes are accepted and the empty array is read as an empty map.
 */
export function phpMap<Value extends z.ZodType>(value: Value) {
  return z
    .union([z.record(z.string(), value), z.tuple([])])
    .transform((map): Record<string, z.output<Value>> => (Array.isArray(map) ? {} : map));
}
