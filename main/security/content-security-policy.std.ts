/**
 * One CSP for both hosts. Scripts and workers only from the app itself ('wasm-unsafe-eval' lets
 * the camera decoder compile its bundled WASM); connections to itself only (the browser host's
 * bridge socket is same-origin); images may be data: or blob: (QR codes, camera snapshots) or
 * https: (promotion images from the platform). Frames only from `platformOrigin`, the loyalty
 * platform's hosted portal-session pages, so a framed page cannot wander anywhere else.
 */
export function contentSecurityPolicy(platformOrigin: string | null): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self'",
    "media-src 'self' blob: mediastream:",
    "connect-src 'self'",
    `frame-src ${platformOrigin ?? "'none'"}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
