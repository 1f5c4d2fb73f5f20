import { describe, expect, it } from 'vitest';
import { operations, type AuthScheme, type OperationId } from '../../api/operations.std.ts';
import { clientOf, contractSuite, expectRefused, type LooseClient } from './contract.test-support.ts';
import type { LoyaltyError } from '../../main/loyalty/errors.std.ts';
import type { LoyaltyCredentials } from '../../main/loyalty/request.std.ts';

/**
 * Authentication per operation and per credential, through the client: every operation of the
 * table is called. A request without any credential is the sandbox's own test
 * (sandbox/http.test.ts): the client refuses to send one.
 */

const suite = contractSuite();
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const input = { portal_session_uuid: UNKNOWN, voucher_uuid: UNKNOWN, contact_uuid: UNKNOWN };
const ids = Object.keys(operations) as OperationId[];
const SCHEMES: AuthScheme[] = ['api_key', 'access_token', 'personal_access_token'];
const slot = { api_key: 'apiKey', access_token: 'accessToken', personal_access_token: 'personalAccessToken' } as const;

const looseClient = (credentials: LoyaltyCredentials) => clientOf(suite.sandbox, credentials) as unknown as LooseClient;
/** A client that sends `secret` whichever credential the operation asks for. */
const sending = (secret: string) => looseClient({ apiKey: secret, accessToken: secret, personalAccessToken: secret });

describe('authentication, per operation', () => {
  it.each(ids)('%s refuses an unknown credential or one of another kind with 401, and takes each it accepts', async (id) => {
    const accepted: readonly AuthScheme[] = operations[id].auth;
    await expectRefused(sending('sbx_key_not-the-real-one')[id](input), 'auth', 401, 401);
    for (const scheme of SCHEMES.filter((candidate) => !accepted.includes(candidate))) {
      await expectRefused(sending(suite.sandbox.credentials[scheme])[id](input), 'auth', 401, 401);
    }
    for (const scheme of accepted) {
      const only = looseClient({ [slot[scheme]]: suite.sandbox.credentials[scheme] });
      // Past the credential check the unknown uuids and misplaced fields meet validation or lookups.
      const status = await only[id](input).then(
        () => 200,
        (error: LoyaltyError) => error.status,
      );
      expect([200, 400, 404]).toContain(status);
    }
  });
});
