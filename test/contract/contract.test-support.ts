import { afterAll, beforeAll, expect } from 'vitest';
import type { OperationId } from '../../api/operations.std.ts';
import type { SandboxManifest } from '../../sandbox/sandbox.node.ts';
import { assertErrorBody, TestSandbox } from '../../sandbox/testing.test-support.ts';
import { createLoyaltyClient, type LoyaltyClient } from '../../main/loyalty/client.node.ts';
import type { LoyaltyErrorKind } from '../../main/loyalty/errors.std.ts';
import { failure } from '../../main/loyalty/loyalty-error.test-support.ts';
import { credentialsByScheme, type LoyaltyCredentials } from '../../main/loyalty/request.std.ts';

/**
 * Contract tests: the kiosk's real client against the real sandbox over HTTP. The client checks
 * every success against the operation's response schema; on the way, every error answer is
 * checked to be the platform's error body with `status_code` equal to the HTTP status, so no test
 * passes on a malformed answer.
 */

let latestStatus: number | undefined;

/** The HTTP status of the latest answer a contract client received, to tell 201 from 200. */
export const lastStatus = () => latestStatus;

// The real fetch; it only looks at the answer on its way to the client.
const checkedFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  latestStatus = response.status;
  if (response.status >= 300) {
    const text = await response.clone().text();
    expect.soft(() => assertErrorBody(response.status, JSON.parse(text))).not.toThrow();
  }
  return response;
};

/** A running sandbox as its manifest describes it: in-process or the CLI's own process. */
type Reachable = Pick<SandboxManifest, 'credentials'> & { baseUrl: string };

export function sandboxCredentials(sandbox: Reachable): LoyaltyCredentials {
  return credentialsByScheme(sandbox.credentials);
}

export function clientOf(sandbox: Reachable, credentials = sandboxCredentials(sandbox)): LoyaltyClient {
  return createLoyaltyClient({ baseUrl: sandbox.baseUrl, credentials: async () => credentials, fetch: checkedFetch });
}

/** The client without input types, for requests the platform must refuse. */
export type LooseClient = { [Id in OperationId]: (input?: object) => Promise<any> };

export class ContractSuite {
  sandbox!: TestSandbox;
  client!: LoyaltyClient;

  get loose(): LooseClient {
    return this.client as unknown as LooseClient;
  }

  /** Restarts the sandbox on its folder; the client follows it to its new port. */
  async restart(): Promise<void> {
    await this.sandbox.restart();
    this.client = clientOf(this.sandbox);
  }
}

/** A sandbox on a fresh folder and a client of it, for the tests of the calling file or describe. */
export function contractSuite(): ContractSuite {
  const suite = new ContractSuite();
  beforeAll(async () => {
    suite.sandbox = await TestSandbox.start();
    suite.client = clientOf(suite.sandbox);
  });
  afterAll(() => suite.sandbox.stop());
  return suite;
}

/** A refusal with this kind, HTTP status and platform code. */
export async function expectRefused(call: Promise<unknown>, kind: LoyaltyErrorKind, status: number, code: number) {
  const error = await failure(call);
  expect({ kind: error.kind, status: error.status, code: error.code }).toEqual({ kind, status, code });
  return error;
}

/** A validation refusal (400, code 1003) with a message for `field`. */
export async function expectInvalid(call: Promise<unknown>, field: string) {
  const error = await expectRefused(call, 'validation', 400, 1003);
  expect(error.fieldErrors?.[field]?.length, `errors.${field}`).toBeGreaterThan(0);
}
