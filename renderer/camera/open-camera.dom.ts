import type { SessionSettings } from '../../common/config-schema.std.ts';
import { cameraErrorKind, type CameraErrorKind } from './camera-errors.std.ts';

export type CameraFacing = SessionSettings['facing_mode'];

export type OpenedCamera = { ok: true; stream: MediaStream } | { ok: false; error: CameraErrorKind };

/**
 * Video only, 1280x720 preferred. Everything is `ideal`: a kiosk's single USB webcam often reports
 * no facing mode or another size, and should still be used rather than fail as overconstrained.
 */
export async function openCamera(facingMode: CameraFacing): Promise<OpenedCamera> {
  try {
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { facingMode: { ideal: facingMode }, width: { ideal: 1280 }, height: { ideal: 720 } },
    });
    return { ok: true, stream };
  } catch (error) {
    return { ok: false, error: cameraErrorKind(error) };
  }
}
