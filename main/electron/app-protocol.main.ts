import fs from 'node:fs/promises';
import type { Protocol } from 'electron';
import { contentSecurityPolicy } from '../security/content-security-policy.std.ts';
import { APP_HOST, APP_SCHEME } from '../security/app-origin.std.ts';
import { resolveRendererFile } from '../security/renderer-files.node.ts';

/** Must run before `app.ready`: app:// behaves like a secure, standard web origin. */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true, codeCache: true },
};

/** Serves the built renderer at app://kiosk/, confined to its folder, with the kiosk's CSP. */
export function registerAppProtocol(
  protocol: Protocol,
  rendererDir: string,
  platformOrigin: () => string | null,
  frameOrigins: () => readonly string[],
) {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const found = url.host === APP_HOST ? resolveRendererFile(rendererDir, url.pathname) : null;
    if (!found) return new Response(null, { status: 404 });
    try {
      const body = await fs.readFile(found.file);
      return new Response(body, {
        headers: {
          'Content-Type': found.contentType,
          'Content-Security-Policy': contentSecurityPolicy(platformOrigin(), frameOrigins()),
          'X-Content-Type-Options': 'nosniff',
        },
      });
    } catch {
      return new Response(null, { status: 404 });
    }
  });
}
