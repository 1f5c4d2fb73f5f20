import type { Session } from 'electron';
import type { Logger } from '../logging/logger.std.ts';
import { isAppUrl } from '../security/app-origin.std.ts';

/**
 * Only the app's own pages may ask for anything, and the only thing they may have is `media`
 * (the camera, for scanning). Downloads never happen on a kiosk.
 */
export function installSessionSecurity(session: Session, logger: Logger) {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    // The camera only: nothing in the kiosk listens, so a microphone request is refused outright.
    const videoOnly = 'mediaTypes' in details && (details.mediaTypes ?? []).every((type) => type === 'video');
    const granted = permission === 'media' && videoOnly && isAppUrl(details.requestingUrl);
    if (!granted) logger.warn('permission refused', { permission });
    callback(granted);
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => {
    return permission === 'media' && isAppUrl(requestingOrigin);
  });
  session.on('will-download', (event) => {
    event.preventDefault();
    logger.warn('download blocked');
  });
}
