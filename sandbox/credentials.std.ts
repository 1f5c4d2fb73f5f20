import type { AuthScheme } from '../api/operations.std.ts';
import { httpError } from './errors.std.ts';
import { randomHex } from './ids.std.ts';
import type { Credentials } from './state.std.ts';

/** One random credential of each kind, made once per data folder. */
export function generateCredentials(): Credentials {
  return {
    api_key: `sbx_key_${randomHex(24)}`,
    access_token: `sbx_at_${randomHex(24)}`,
    personal_access_token: `sbx_pat_${randomHex(24)}`,
  };
}

/** 401 unless the Bearer value is one of the credentials the operation accepts. */
export function requireCredential(authorization: string | undefined, credentials: Credentials, accepted: readonly AuthScheme[]) {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (bearer === undefined || !accepted.some((scheme) => credentials[scheme] === bearer)) {
    throw httpError(401, 'Unauthenticated.');
  }
}
