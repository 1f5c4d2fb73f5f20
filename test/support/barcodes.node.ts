import fs from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes, type ReadResult } from 'zxing-wasm/reader';

/** zxing's reader from this checkout's own copy, never the CDN it would fetch by default (no network here). */
const WASM = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
let prepared: Promise<unknown> | null = null;

/**
 * The Code 128 values a till's imager would read in `png` (a screenshot of a screen, or a slip's
 * preview rendered to pixels), in the order zxing finds them.
 */
export async function barcodesIn(png: Uint8Array, formats: NonNullable<Parameters<typeof readBarcodes>[1]>['formats'] = ['Code128']): Promise<string[]> {
  prepared ??= prepareZXingModule({ overrides: { wasmBinary: new Uint8Array(fs.readFileSync(WASM)).buffer }, fireImmediately: true });
  await prepared;
  const found: ReadResult[] = await readBarcodes(new Uint8Array(png), { formats, tryHarder: true, maxNumberOfSymbols: 8 });
  return found.filter((result) => result.isValid).map((result) => result.text);
}
