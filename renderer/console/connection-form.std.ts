import { isLoopbackUrl } from '../../common/config-schema.std.ts';
import type { MessageKey } from '../i18n/message-types.std.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ConnectField = 'baseUrl' | 'apiKey' | 'accessToken' | 'personalAccessToken' | 'shopUuid';
export type ConnectDraft = Record<ConnectField, string>;

/** What the connection test and the save send: secrets only when typed (else the stored ones stay). */
export interface ConnectValues {
  baseUrl: string;
  shopUuid: string;
  secrets: Partial<Record<'apiKey' | 'accessToken' | 'personalAccessToken', string>>;
}

/**
 * The API base URL as the config stores it (no trailing slash), or why not: it must be http(s),
 * and https unless it is this computer (a local sandbox or proxy). Checked before anything is sent.
 */
export function checkBaseUrl(text: string): { ok: true; url: string } | { ok: false; problem: MessageKey } {
  const trimmed = text.trim().replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, problem: 'console.problem.url' };
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password || trimmed.length > 500) {
    return { ok: false, problem: 'console.problem.url' };
  }
  if (url.protocol === 'http:' && !isLoopbackUrl(url)) return { ok: false, problem: 'console.problem.https' };
  return { ok: true, url: trimmed };
}

/**
 * Whether two base URLs name the same origin. Stored secrets belong to the saved URL's origin:
 * main sends them nowhere else, so a URL at another origin needs its secrets typed again.
 */
export function sameOrigin(a: string, b: string | null): boolean {
  try {
    return b !== null && new URL(a.trim()).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/** The whole form checked; `keyStored`: an API key is in the keychain already, so typing one is optional. */
export function checkConnectDraft(
  draft: ConnectDraft,
  { keyStored }: { keyStored: boolean },
): { ok: true; value: ConnectValues } | { ok: false; problems: Partial<Record<ConnectField, MessageKey>> } {
  const problems: Partial<Record<ConnectField, MessageKey>> = {};
  const url = checkBaseUrl(draft.baseUrl);
  if (!url.ok) problems.baseUrl = url.problem;
  if (!keyStored && draft.apiKey.trim() === '') problems.apiKey = 'console.problem.api_key';
  if (!UUID.test(draft.shopUuid.trim())) problems.shopUuid = 'console.problem.uuid';
  if (!url.ok || Object.keys(problems).length > 0) return { ok: false, problems };
  const secrets: ConnectValues['secrets'] = {};
  for (const name of ['apiKey', 'accessToken', 'personalAccessToken'] as const) {
    const value = draft[name].trim();
    if (value) secrets[name] = value;
  }
  return { ok: true, value: { baseUrl: url.url, shopUuid: draft.shopUuid.trim().toLowerCase(), secrets } };
}
