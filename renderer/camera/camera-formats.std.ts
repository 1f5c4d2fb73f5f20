import type { CameraFormat } from '../../common/config-schema.std.ts';

/**
 * The one table between the config's format names (`scanner.camera.formats`) and each decoder's:
 * ZXing's, the `BarcodeDetector`'s, and the AIM identifier (without `]`, as in `Scan`) that ZXing
 * reports for it. `BarcodeDetector` reports none, so the native path takes it from here; the
 * modifier is the common default (QR model 2, plain EAN-13, no check-digit/FNC1 flags), which is
 * enough to tell formats apart.
 */
const FORMAT_NAMES = {
  qr: { zxing: 'QRCode', native: 'qr_code', aim: 'Q1' },
  code128: { zxing: 'Code128', native: 'code_128', aim: 'C0' },
  ean13: { zxing: 'EAN13', native: 'ean_13', aim: 'E0' },
  ean8: { zxing: 'EAN8', native: 'ean_8', aim: 'E4' },
  code39: { zxing: 'Code39', native: 'code_39', aim: 'A0' },
  datamatrix: { zxing: 'DataMatrix', native: 'data_matrix', aim: 'd1' },
} as const satisfies Record<CameraFormat, { zxing: string; native: string; aim: string }>;

export type ZxingFormat = (typeof FORMAT_NAMES)[CameraFormat]['zxing'];

export function zxingFormats(formats: readonly CameraFormat[]): ZxingFormat[] {
  return formats.map((format) => FORMAT_NAMES[format].zxing);
}

export function nativeFormats(formats: readonly CameraFormat[]): string[] {
  return formats.map((format) => FORMAT_NAMES[format].native);
}

/** The AIM identifier for a `BarcodeDetector` format; undefined for one the kiosk does not read. */
export function nativeFormatSymbology(nativeFormat: string): string | undefined {
  return Object.values(FORMAT_NAMES).find((names) => names.native === nativeFormat)?.aim;
}
