import type { CameraService, DecoderEngine } from './camera-service.std.ts';

/** One code found in a frame. `symbology` is the AIM identifier without `]`, as in `Scan`. */
export interface DecodedCode {
  value: string;
  symbology?: string;
}

/** Page → decoder worker. A frame's bitmap is transferred, and closed by the worker. */
export type DecoderRequest = { type: 'init'; service: CameraService } | { type: 'frame'; bitmap: ImageBitmap };

/** Decoder worker → page. Exactly one reply per request. */
export type DecoderReply =
  | { type: 'ready'; engine: DecoderEngine }
  | { type: 'init-failed'; message: string }
  | { type: 'decoded'; codes: DecodedCode[] };

/** Kiosk formats in ZXing naming (same set as KIOSK_NATIVE_FORMATS). */
export const KIOSK_ZXING_FORMATS = ['QRCode', 'EAN13', 'EAN8', 'Code128', 'Code39', 'DataMatrix'] as const;

/**
 * AIM identifiers for `BarcodeDetector` formats, which carry none. The modifier is the common
 * default (QR model 2, plain EAN-13, no check-digit/FNC1 flags) — good enough to tell formats apart.
 */
const aimByNativeFormat: Readonly<Record<string, string>> = {
  qr_code: 'Q1',
  ean_13: 'E0',
  ean_8: 'E4',
  code_128: 'C0',
  code_39: 'A0',
  data_matrix: 'd1',
};

export function nativeFormatSymbology(format: string): string | undefined {
  return aimByNativeFormat[format];
}

/** ZXing reports `]Q1`; `Scan.symbology` has no bracket. */
export function zxingSymbology(symbologyIdentifier: string): string | undefined {
  return symbologyIdentifier.replace(/^\]/, '') || undefined;
}
