import fc from 'fast-check';
import { BridgeErrorCode, calls, managerCalls, type BridgeResult, type CallName } from '../../common/contract.std.ts';

/** Shared by the bridge and WebSocket fuzz suites: what a hostile or broken page could call. */

export const CALL_NAMES = Object.keys(calls) as CallName[];

/** Values a real kiosk knows (a demo voucher code, a PIN shape, a uuid): they get past the schema. */
const NEAR_VALID = ['KOFFIE24', '2580', '0000', '00000000-0000-4000-8000-000000000000', 'shopper@example.nl', 'http://127.0.0.1:1/', 'regular'];

/** Strings that break naive code: control characters, lone surrogates, prototype names, huge ones. */
export const nastyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom('\0', '\n', '\r', '\u0007', '\u001b', '\u202e', '\ud800', '%', '"', '\\', '/', '.') }),
  fc.constantFrom('', ' ', '__proto__', 'constructor', 'toString', ...NEAR_VALID),
  fc.integer({ min: 1_000, max: 300_000 }).map((length) => 'x'.repeat(length)),
);

const nastyValue = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(nastyString, { maxLength: 4 }),
);

/** The values an enum field takes (through optional and nullable), so a fuzzed call can name a real one. */
function enumValues(field: unknown): unknown[] {
  let schema = field as { options?: unknown[]; unwrap?: () => unknown } | undefined;
  while (schema && !Array.isArray(schema.options) && typeof schema.unwrap === 'function') schema = schema.unwrap() as typeof schema;
  return Array.isArray(schema?.options) ? schema.options.filter((option) => typeof option === 'string') : [];
}

/** A value for `field`: odd ones mostly, now and then one of its enum's own (a real secret name, say). */
const valueFor = (field: unknown) => {
  const own = enumValues(field);
  return own.length > 0 ? fc.oneof({ weight: 2, arbitrary: nastyValue }, { weight: 1, arbitrary: fc.constantFrom(...own) }) : nastyValue;
};

/** An object with the call's own field names (so the schema reads further in) and wrong or odd values. */
function fieldsOf(call: CallName) {
  const schema = calls[call].input as unknown as { shape?: Record<string, unknown> };
  const shape = schema.shape ?? {};
  const extra = fc.dictionary(nastyString.filter((key) => key.length < 100), nastyValue, { maxKeys: 2 });
  return fc.tuple(fc.record(Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, valueFor(field)])), { requiredKeys: [] }), extra, fc.boolean()).map(
    ([fields, more, withExtra]) => (withExtra ? { ...more, ...fields } : fields),
  );
}

export const payloadFor = (call: CallName) =>
  fc.oneof({ weight: 4, arbitrary: fieldsOf(call) }, fc.jsonValue({ maxDepth: 4 }), fc.anything({ maxDepth: 3 }), nastyString);

/** Mostly real call names with odd payloads; now and then a name that is no call at all. */
export const bridgeCall = fc.oneof(
  { weight: 9, arbitrary: fc.constantFrom(...CALL_NAMES).chain((call) => payloadFor(call).map((payload) => ({ call: call as unknown, payload }))) },
  { weight: 1, arbitrary: fc.record({ call: fc.oneof(nastyString, fc.anything({ maxDepth: 1 })), payload: fc.anything({ maxDepth: 2 }) }) },
);

/** The store manager's calls only, with odd payloads: what a page with an unlocked console could send. */
export const managerCall = fc
  .constantFrom(...(Object.keys(managerCalls) as CallName[]))
  .chain((call) => payloadFor(call).map((payload) => ({ call: call as unknown, payload })));

/** A clear answer: a value, or a refusal with a code the renderer knows and a message, never a stack. */
export function isClearAnswer(result: BridgeResult<unknown>): boolean {
  if (typeof result !== 'object' || result === null) return false;
  if (result.ok === true) return 'value' in result;
  return (
    result.ok === false &&
    BridgeErrorCode.safeParse(result.error?.code).success &&
    // `internal` is what the dispatcher answers for a handler that crashed: a defect, never a clear answer.
    result.error.code !== 'internal' &&
    typeof result.error.message === 'string' &&
    result.error.message.length > 0 &&
    !/\n\s+at /.test(result.error.message)
  );
}
