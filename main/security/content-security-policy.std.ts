/**
 * One CSP for both hosts. Scripts and workers only from the app itself ('wasm-unsafe-eval' lets
 * the camera decoder compile its bundled WASM); connections to itself only (the browser host's
 * bridge socket is same-origin); images only from the app, data: (QR codes, the sandbox's badges)
 * and `platformOrigin` (promotion images the loyalty platform serves). Frames only from
 * `frameOrigins` (FrameOrigins: the platform's and its hosted portal pages' origins, built per
 * kiosk), so a framed page cannot wander anywhere else.
 *
 * Styles: no 'unsafe-inline'. The built renderer's CSS is a file of its own, and everything the
 * renderer styles at run time (Svelte `style:` directives, the keyboard's height) goes through
 * the CSSOM (`element.style.setProperty`), which CSP does not govern. The renderer uses no Svelte
 * transitions (Svelte 5 would run them through the Web Animations API anyway).
 */
export function contentSecurityPolicy(platformOrigin: string | null, frameOrigins: readonly string[] = platformOrigin ? [platformOrigin] : []): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self' blob:",
    "style-src 'self'",
    `img-src 'self' data:${platformOrigin ? ` ${platformOrigin}` : ''}`,
    "font-src 'self'",
    "media-src 'self' blob: mediastream:",
    "connect-src 'self'",
    `frame-src ${frameOrigins.length > 0 ? frameOrigins.join(' ') : "'none'"}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
