/** The kiosk's URL scheme: `loyalty-kiosk://portal-session/<uuid>` reopens a portal session. */
export const DEEP_LINK_SCHEME = 'loyalty-kiosk';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The portal-session uuid a deep link names, or null for anything else (never trusted further). */
export function portalSessionFromDeepLink(link: string): string | null {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  if (url.protocol !== `${DEEP_LINK_SCHEME}:` || url.hostname !== 'portal-session') return null;
  const uuid = url.pathname.replace(/^\//, '');
  return UUID.test(uuid) ? uuid.toLowerCase() : null;
}

/** Deep links arrive among a second instance's arguments (Windows, Linux). */
export function portalSessionFromArgv(argv: readonly string[]): string | null {
  for (const arg of argv) {
    const uuid = portalSessionFromDeepLink(arg);
    if (uuid) return uuid;
  }
  return null;
}
