import fs from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes, type ReadResult } from 'zxing-wasm/reader';

/** zxing's reader from this checkout's own copy, never the CDN it would fetch by default (no network here). */
const WASM = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
let prepared: Promise<unknown> | null = null;

/** An encoded image (a PNG screenshot), or RGBA pixels as a canvas holds them. */
type Image = Uint8Array | ImageData;

/**
 * The Code 128 values a till's imager would read in `image` (a screenshot of a screen, a slip's
 * preview rendered to pixels, or pixels painted by a test), in the order zxing finds them.
 */
export async function barcodesIn(image: Image, formats: NonNullable<Parameters<typeof readBarcodes>[1]>['formats'] = ['Code128']): Promise<string[]> {
  prepared ??= prepareZXingModule({ overrides: { wasmBinary: new Uint8Array(fs.readFileSync(WASM)).buffer }, fireImmediately: true });
  await prepared;
  const found: ReadResult[] = await readBarcodes(image instanceof Uint8Array ? new Uint8Array(image) : image, { formats, tryHarder: true, maxNumberOfSymbols: 8 });
  return found.filter((result) => result.isValid).map((result) => result.text);
}
