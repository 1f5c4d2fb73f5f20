import type { CameraFormat, SessionSettings } from '../../common/config-schema.std.ts';
import { nativeFormats } from './camera-formats.std.ts';

/**
 * `camera_service` — which decoder reads codes from the camera. The platform leaves the values
 * undefined; this kiosk defines them:
 *
 * - `1` native: the browser's `BarcodeDetector` whenever it exists and reads at least one of the
 *   kiosk's formats (it then reads only those). Chromium has no `BarcodeDetector` on Linux or
 *   Windows, so there — and wherever it is missing — the kiosk falls back to ZXing.
 * - `2` ZXing: always the ZXing-C++ WebAssembly decoder bundled with the app (never fetched).
 * - `3` automatic: native only when it reads every format the kiosk reads
 *   (`scanner.camera.formats`), else ZXing — so no format is lost by choosing native.
 */
export type CameraService = SessionSettings['camera_service'];

export type DecoderEngine = 'native' | 'zxing';

/**
 * `formats`: the kiosk's (`scanner.camera.formats`); `supported`: what
 * `BarcodeDetector.getSupportedFormats()` returned, empty when there is no detector.
 */
export function chooseDecoderEngine(service: CameraService, formats: readonly CameraFormat[], supported: readonly string[]): DecoderEngine {
  const wanted = nativeFormats(formats);
  const covered = wanted.filter((format) => supported.includes(format)).length;
  switch (service) {
    case 1:
      return covered > 0 ? 'native' : 'zxing';
    case 2:
      return 'zxing';
    case 3:
      return covered === wanted.length ? 'native' : 'zxing';
  }
}
