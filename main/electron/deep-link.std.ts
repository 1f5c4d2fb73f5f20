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

/** Deep links arrive among the arguments of the launch or of a second instance (Windows, Linux). */
export function portalSessionFromArgv(argv: readonly string[]): string | null {
  for (const arg of argv) {
    const uuid = portalSessionFromDeepLink(arg);
    if (uuid) return uuid;
  }
  return null;
}

/**
 * Portal sessions deep links name, held until the kiosk can show them: a link that starts the app
 * arrives before there is a renderer listening, and would otherwise be lost.
 */
export class PortalSessionLinks {
  #held: string | null = null;
  #open: ((uuid: string) => void) | null = null;

  /** A link's uuid as read by the parsers above; null (not a portal-session link) is ignored. */
  receive(uuid: string | null) {
    if (!uuid) return;
    if (this.#open) this.#open(uuid);
    else this.#held = uuid;
  }

  /** From now on links open at once; the newest one held so far opens now. */
  openWith(open: (uuid: string) => void) {
    this.#open = open;
    const held = this.#held;
    this.#held = null;
    if (held) open(held);
  }
}
