import type { CameraFormat } from '../../common/config-schema.std.ts';
import { nativeFormats, nativeFormatSymbology } from './camera-formats.std.ts';
import type { DecodedCode } from './decoder-protocol.std.ts';

// The Shape Detection API is not in TypeScript's DOM library yet.
interface DetectedBarcode {
  rawValue: string;
  format: string;
}
interface BarcodeDetector {
  detect(image: ImageBitmapSource): Promise<DetectedBarcode[]>;
}
interface BarcodeDetectorConstructor {
  new (options: { formats: string[] }): BarcodeDetector;
  getSupportedFormats(): Promise<string[]>;
}

const NativeDetector = (globalThis as { BarcodeDetector?: BarcodeDetectorConstructor }).BarcodeDetector;

/** What the browser's `BarcodeDetector` can read here; empty where it does not exist (Chromium on Linux/Windows). */
export async function nativeSupportedFormats(): Promise<string[]> {
  return NativeDetector ? NativeDetector.getSupportedFormats() : [];
}

/** A decoder for those of the kiosk's `formats` this browser's `BarcodeDetector` supports. */
export function createNativeDecoder(
  formats: readonly CameraFormat[],
  supportedFormats: readonly string[],
): (image: ImageBitmap) => Promise<DecodedCode[]> {
  if (!NativeDetector) throw new Error('BarcodeDetector is not available');
  const detector = new NativeDetector({ formats: nativeFormats(formats).filter((format) => supportedFormats.includes(format)) });
  return async (image) =>
    (await detector.detect(image)).map((code) => ({ value: code.rawValue, symbology: nativeFormatSymbology(code.format) }));
}
