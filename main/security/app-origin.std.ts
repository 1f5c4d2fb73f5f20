/** The renderer is served from app://kiosk (Electron) and never from file://. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'kiosk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** Parses instead of comparing prefixes, so `app://kiosk.evil` or `app://kiosk@evil` never pass. */
export function isAppUrl(candidate: string | undefined | null): boolean {
  if (!candidate) return false;
  try {
    const url = new URL(candidate);
    return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}
