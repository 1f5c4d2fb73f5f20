/**
 * Why the camera could not start, as kinds the screen localises:
 * - `no-camera`: nothing attached, or nothing that satisfies the constraints.
 * - `permission-denied`: the user or the platform refused camera access.
 * - `camera-busy`: the device exists but another program (or a driver fault) holds it.
 * - `decoder-unavailable`: the bundled decoder failed to load, so scanning cannot work.
 * - `unknown`: anything else; log it.
 */
export type CameraErrorKind = 'no-camera' | 'permission-denied' | 'camera-busy' | 'decoder-unavailable' | 'unknown';

const kindByDomExceptionName: Readonly<Record<string, CameraErrorKind>> = {
  NotFoundError: 'no-camera',
  OverconstrainedError: 'no-camera',
  NotAllowedError: 'permission-denied',
  SecurityError: 'permission-denied',
  NotReadableError: 'camera-busy',
  AbortError: 'camera-busy',
};

/** Maps a `getUserMedia` rejection to its kind (`OverconstrainedError` is not a DOMException, so go by name). */
export function cameraErrorKind(error: unknown): CameraErrorKind {
  const name = typeof error === 'object' && error !== null && 'name' in error ? error.name : undefined;
  return (typeof name === 'string' && kindByDomExceptionName[name]) || 'unknown';
}
