/**
 * One CSP for both hosts. Scripts and workers only from the app itself ('wasm-unsafe-eval' lets
 * the camera decoder compile its bundled WASM); connections to itself only (the browser host's
 * bridge socket is same-origin); images may be data: or blob: (QR codes, camera snapshots) or
 * https: (promotion images from the platform).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self'",
  "media-src 'self' blob: mediastream:",
  "connect-src 'self'",
  "frame-src https: http://127.0.0.1:*",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
