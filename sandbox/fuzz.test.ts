import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { AuthScheme } from '../api/operations.std.ts';
import { routedOperations, type RoutedOperationId } from './routes.std.ts';
import { TestSandbox } from './testing.test-support.ts';

/**
 * Random bodies, queries, path parameters and credentials, one property per operation of the
 * routed table, so every operation gets its share. Whatever arrives, the answer is never a 5xx,
 * and it always passes its schema: the operation's response for a success, the platform's error
 * body (with status_code equal to the status) for a refusal. The TestSandbox client checks both
 * on every call.
 */
let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await TestSandbox.start();
});
afterAll(() => sandbox.stop());

const ids = Object.keys(routedOperations) as RoutedOperationId[];
// About a thousand requests in all, as many for each operation.
const RUNS_PER_OPERATION = Math.ceil(1000 / ids.length);

/** Field names the operation knows (from its own schemas), so most requests get past the strict key check. */
function knownFields(id: RoutedOperationId): string[] {
  const { body, query } = routedOperations[id] as { body?: z.ZodObject; query?: z.ZodObject };
  return [...Object.keys(body?.shape ?? {}), ...Object.keys(query?.shape ?? {}), '__proto__'];
}

function requests(id: RoutedOperationId) {
  const { manifest } = sandbox;
  const known = [
    ...manifest.shops.map((shop) => shop.uuid),
    ...manifest.contacts.map((contact) => contact.uuid),
    ...manifest.promotions.map((promotion) => promotion.uuid),
    ...manifest.vouchers.flatMap((voucher) => [voucher.uuid, voucher.code]),
    ...manifest.contacts.flatMap((contact) => contact.identifiers),
    'ACTIVE', 'DEACTIVATED', 'LOCKED', 'select', 'text', 'camera', 'hand_scanner', 'email', 'identifier',
    '2031-01-01T10:00:00+02:00', '2031-02-30T00:00:00', '1969-12-31T23:59:59Z', 'new.member@example.nl',
  ];
  const value = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom<unknown>(...known) },
    fc.uuid(),
    fc.string({ maxLength: 40 }),
    fc.integer({ min: -5, max: 5000 }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.jsonValue({ maxDepth: 2 }),
    fc.array(fc.record({ name: fc.string({ maxLength: 8 }), value: fc.jsonValue({ maxDepth: 0 }) }), { maxLength: 3 }),
  );
  const textValue = value.map((item) => (typeof item === 'string' ? item : (JSON.stringify(item) ?? '')));
  const fieldsOf = <V>(values: fc.Arbitrary<V>) =>
    fc.dictionary(
      fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...knownFields(id)) }, fc.string({ maxLength: 12 })),
      values,
      { maxKeys: 6 },
    );
  const scheme = fc.oneof(
    { weight: 8, arbitrary: fc.constant<'accepted'>('accepted') },
    fc.constantFrom<AuthScheme | null>('api_key', 'access_token', 'personal_access_token', null),
  );
  return fc.record({
    body: fc.oneof({ weight: 8, arbitrary: fieldsOf(value) }, fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined)),
    query: fieldsOf(textValue),
    param: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known.map(String)) }, fc.uuid(), fc.string({ maxLength: 40 })),
    scheme,
  });
}

describe('random requests', () => {
  it.each(ids)('to %s never get a 5xx, and every answer passes its schema', async (id) => {
    await fc.assert(
      fc.asyncProperty(requests(id), async ({ body, query, param, scheme }) => {
        const as = scheme === 'accepted' ? routedOperations[id].auth[0] : scheme;
        const params = { portal_session_uuid: param, voucher_uuid: param, contact_uuid: param };
        const reply = await sandbox.call(id, { params, query, body, as });
        expect(reply.status).toBeLessThan(500);
      }),
      { numRuns: RUNS_PER_OPERATION },
    );
  });

  it('answer raw text bodies, odd paths and odd methods with JSON errors', async () => {
    const key = { authorization: `Bearer ${sandbox.credentials.api_key}` };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
        fc.stringMatching(/^(\/[a-z0-9_%{}-]{0,12}){0,4}$/),
        fc.string({ maxLength: 200 }),
        async (method, path, text) => {
          const reply = await sandbox.fetch(method, path, { headers: key, body: method === 'GET' ? undefined : text });
          expect(reply.status).toBeLessThan(500);
        },
      ),
      { numRuns: 200 },
    );
  });
});
