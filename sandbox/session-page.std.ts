import { randomHex } from './ids.std.ts';
import { findContact, requireShop } from './lookups.std.ts';
import type { PortalSessionType, SandboxState } from './state.std.ts';
import { formatTimestamp } from './timestamps.std.ts';

/**
 * The page a portal session's `url` opens, standing in for the platform's hosted page. Every
 * value is escaped, and the one style block carries a per-response nonce so the CSP can forbid
 * scripts and every other resource.
 */
export interface SessionPage {
  status: number;
  html: string;
  contentSecurityPolicy: string;
}

const TYPE_TITLES: Record<PortalSessionType, string> = {
  default: 'Loyalty portal',
  credit_reception: 'Collect credits',
  redeem_giftcards: 'Pay with a giftcard',
  top_up_giftcards: 'Top up a giftcard',
  pay_prepaid: 'Pay with prepaid balance',
  top_up_prepaid: 'Top up prepaid balance',
  vouchers: 'Your vouchers',
};

export function sessionPage(state: SandboxState, uuid: string | null): SessionPage {
  const session = uuid ? state.portal_sessions.find((candidate) => candidate.uuid === uuid) : undefined;
  if (!session) {
    return page(404, 'Session not found', '<h1>Session not found</h1><p>This portal session does not exist.</p>');
  }
  const title = TYPE_TITLES[session.type];
  const rows: Array<[string, string]> = [
    ['Shop', requireShop(state, session.shop_uuid).name],
    ['Customer', findContact(state, session.contact_uuid)?.email ?? 'Not identified yet'],
    ['Started', formatTimestamp(session.created_at)],
    ...Object.entries(session.settings).map(([name, value]): [string, string] => [name, String(value)]),
  ];
  const body = `
    <p class="badge">Sandbox</p>
    <h1>${escapeHtml(title)}</h1>
    <dl>${rows.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>
    <p class="note">Session ${escapeHtml(session.uuid)}. On the real platform this page is hosted by the platform.</p>`;
  return page(200, title, body);
}

function page(status: number, title: string, body: string): SessionPage {
  const nonce = randomHex(16);
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">
  :root { color-scheme: light; font-family: system-ui, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f3f4f6; color: #111827; }
  main { background: #fff; border-radius: 16px; padding: 48px; max-width: 720px; width: calc(100% - 64px);
         box-shadow: 0 10px 30px rgb(0 0 0 / 0.08); }
  h1 { font-size: 40px; margin: 0 0 24px; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 12px 24px; font-size: 24px; margin: 0; }
  dt { color: #4b5563; } dd { margin: 0; overflow-wrap: anywhere; }
  .badge { display: inline-block; margin: 0 0 16px; padding: 4px 12px; border-radius: 999px;
           background: #1e3a8a; color: #fff; font-size: 16px; letter-spacing: 0.05em; text-transform: uppercase; }
  .note { margin: 32px 0 0; color: #4b5563; font-size: 16px; }
</style>
</head>
<body><main>${body}</main></body>
</html>
`;
  const contentSecurityPolicy = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return { status, html, contentSecurityPolicy };
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}
