import type { AttributeValue } from './state.std.ts';

/** Custom attributes arrive as an object or as the spec's key-value array of `{name, value}`. */
export type CustomAttributesInput =
  | Record<string, AttributeValue>
  | Array<{ name: string; value: AttributeValue }>;

export function customAttributesRecord(input: CustomAttributesInput | undefined | null): Record<string, AttributeValue> {
  if (!input) return {};
  if (Array.isArray(input)) return Object.fromEntries(input.map(({ name, value }) => [name, value]));
  return { ...input };
}
