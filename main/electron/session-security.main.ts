import type { Session } from 'electron';
import type { Logger } from '../logging/logger.std.ts';
import { originOf } from '../secrets/secret-origin.node.ts';
import { isAppUrl } from '../security/app-origin.std.ts';

/** What decides whether a framed portal page may use the camera. */
export interface FramedCamera {
  /** Origins the kiosk frames (FrameOrigins): the platform's and its hosted pages'. */
  frameOrigins: () => readonly string[];
  /** The kiosk scans with the camera (`session.scanner_type`), so the hosted page may too. */
  cameraMode: () => boolean;
}

/** The camera rule for framed pages, from the services: their frame origins and the scanner setting. */
export function framedCameraOf(services: { frameOrigins: { list(): string[] }; config: { get(): { session: { scanner_type: string } } } }): FramedCamera {
  return { frameOrigins: () => services.frameOrigins.list(), cameraMode: () => services.config.get().session.scanner_type === 'camera' };
}

/**
 * Only the app's own pages may ask for anything, and the only thing they may have is `media`
 * (the camera, for scanning). A hosted portal page framed by the kiosk may have the camera too,
 * but only as a frame, from an allowed origin, while the kiosk itself scans with the camera.
 * Downloads never happen on a kiosk.
 */
export function installSessionSecurity(session: Session, logger: Logger, framed: FramedCamera = { frameOrigins: () => [], cameraMode: () => false }) {
  const mayUseCamera = (url: string, isMainFrame: boolean) => {
    const origin = originOf(url);
    return isAppUrl(url) || (!isMainFrame && framed.cameraMode() && origin !== null && framed.frameOrigins().includes(origin));
  };
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    // The camera only: nothing in the kiosk listens, so a microphone request is refused outright.
    const videoOnly = 'mediaTypes' in details && (details.mediaTypes ?? []).every((type) => type === 'video');
    const granted = permission === 'media' && videoOnly && mayUseCamera(details.requestingUrl, details.isMainFrame);
    if (!granted) logger.warn('permission refused', { event: 'permission.refused', permission });
    callback(granted);
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) => {
    return permission === 'media' && mayUseCamera(requestingOrigin, details.isMainFrame);
  });
  session.on('will-download', (event) => {
    event.preventDefault();
    logger.warn('download blocked', { event: 'download.blocked' });
  });
}
