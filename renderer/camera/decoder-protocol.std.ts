import type { CameraFormat } from '../../common/config-schema.std.ts';
import type { CameraService, DecoderEngine } from './camera-service.std.ts';

/** One code found in a frame. `symbology` is the AIM identifier without `]`, as in `Scan`. */
export interface DecodedCode {
  value: string;
  symbology?: string;
}

/**
 * Page → decoder worker. `formats`: the only formats the decoder reads (`scanner.camera.formats`).
 * A frame's bitmap is already cut to the region to decode (decode-region.std.ts); it is
 * transferred, and closed by the worker.
 */
export type DecoderRequest =
  | { type: 'init'; service: CameraService; formats: readonly CameraFormat[] }
  | { type: 'frame'; bitmap: ImageBitmap };

/** Decoder worker → page. Exactly one reply per request. */
export type DecoderReply =
  | { type: 'ready'; engine: DecoderEngine }
  | { type: 'init-failed'; message: string }
  | { type: 'decoded'; codes: DecodedCode[] };

/** ZXing reports `]Q1`; `Scan.symbology` has no bracket. */
export function zxingSymbology(symbologyIdentifier: string): string | undefined {
  return symbologyIdentifier.replace(/^\]/, '') || undefined;
}
