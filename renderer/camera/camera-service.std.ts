import type { SessionSettings } from '../../common/config-schema.std.ts';

/**
 * `camera_service` — which decoder reads codes from the camera. The platform leaves the values
 * undefined; this kiosk defines them:
 *
 * - `1` native: the browser's `BarcodeDetector` whenever it exists and reads at least one of the
 *   kiosk's formats (it then reads only those). Chromium has no `BarcodeDetector` on Linux or
 *   Windows, so there — and wherever it is missing — the kiosk falls back to ZXing.
 * - `2` ZXing: always the ZXing-C++ WebAssembly decoder bundled with the app (never fetched).
 * - `3` automatic: native only when it reads every kiosk format (QR, EAN-13, EAN-8, Code 128,
 *   Code 39, DataMatrix), else ZXing — so no format is lost by choosing native.
 */
export type CameraService = SessionSettings['camera_service'];

export type DecoderEngine = 'native' | 'zxing';

/** The kiosk's formats in `BarcodeDetector` naming. */
export const KIOSK_NATIVE_FORMATS = ['qr_code', 'ean_13', 'ean_8', 'code_128', 'code_39', 'data_matrix'] as const;

/** `nativeFormats` is what `BarcodeDetector.getSupportedFormats()` returned; empty when there is no detector. */
export function chooseDecoderEngine(service: CameraService, nativeFormats: readonly string[]): DecoderEngine {
  const covered = KIOSK_NATIVE_FORMATS.filter((format) => nativeFormats.includes(format)).length;
  switch (service) {
    case 1:
      return covered > 0 ? 'native' : 'zxing';
    case 2:
      return 'zxing';
    case 3:
      return covered === KIOSK_NATIVE_FORMATS.length ? 'native' : 'zxing';
  }
}
