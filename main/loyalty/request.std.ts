import type { AuthScheme, Operation, OperationId } from '../../api/operations.std.ts';
import { LoyaltyError } from './errors.std.ts';

/** Credentials as the keychain holds them; any may be missing. */
export interface LoyaltyCredentials {
  apiKey?: string;
  accessToken?: string;
  personalAccessToken?: string;
}

const credentialOf: Record<AuthScheme, keyof LoyaltyCredentials> = {
  api_key: 'apiKey',
  access_token: 'accessToken',
  personal_access_token: 'personalAccessToken',
};

/** Credentials named by auth scheme, as the platform (and the sandbox's manifest) hands them out. */
export function credentialsByScheme(byScheme: Readonly<Record<AuthScheme, string>>): LoyaltyCredentials {
  const credentials: LoyaltyCredentials = {};
  for (const [scheme, name] of Object.entries(credentialOf) as [AuthScheme, keyof LoyaltyCredentials][]) credentials[name] = byScheme[scheme];
  return credentials;
}

/** The first configured credential the operation accepts, in its order of preference. */
export function chooseCredential(auth: readonly AuthScheme[], credentials: LoyaltyCredentials): string | undefined {
  return auth.map((scheme) => credentials[credentialOf[scheme]]).find((credential) => !!credential);
}

export interface WireRequest {
  method: Operation['method'];
  url: URL;
  /** JSON text, for operations that take a body. */
  body?: string;
}

function definedEntries(input: Record<string, unknown>, keys: readonly string[]): [string, unknown][] {
  return keys.filter((key) => input[key] !== undefined).map((key) => [key, input[key]]);
}

/**
 * Places a call's flat input where the operation wants it: path parameters into the path
 * (URL-encoded), query fields into the query string, everything else into the JSON body.
 */
export function wireRequest(operation: Operation, baseUrl: string, input: Record<string, unknown>): WireRequest {
  const pathKeys = Object.keys(operation.params?.shape ?? {});
  const queryKeys = Object.keys(operation.query?.shape ?? {});
  const path = operation.path.replace(/\{(\w+)\}/g, (_placeholder, name: string) =>
    encodedParameter(operation.id, name, input[name]),
  );
  const address = baseUrl.replace(/\/+$/, '') + path;
  // A base URL that is no URL means a platform the kiosk cannot reach, as a refused connection does.
  if (!URL.canParse(address)) {
    throw new LoyaltyError({ kind: 'network', operation: operation.id, message: 'The loyalty platform address is not a valid URL' });
  }
  const url = new URL(address);
  for (const [key, value] of definedEntries(input, queryKeys)) url.searchParams.set(key, String(value));
  if (!operation.body) return { method: operation.method, url };
  const bodyKeys = Object.keys(input).filter((key) => !pathKeys.includes(key) && !queryKeys.includes(key));
  return { method: operation.method, url, body: JSON.stringify(Object.fromEntries(definedEntries(input, bodyKeys))) };
}

function encodedParameter(operation: OperationId, name: string, value: unknown): string {
  if (value === undefined || value === '') {
    throw new LoyaltyError({ kind: 'validation', operation, message: `Missing path parameter ${name}` });
  }
  try {
    return encodeURIComponent(String(value));
  } catch {
    // A lone UTF-16 surrogate cannot be encoded.
    throw new LoyaltyError({ kind: 'validation', operation, message: `Path parameter ${name} is not valid text` });
  }
}
