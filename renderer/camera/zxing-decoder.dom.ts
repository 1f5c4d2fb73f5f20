/// <reference types="vite/client" />
import { prepareZXingModule, readBarcodes, type ReaderOptions, type ZXingModuleOverrides } from 'zxing-wasm/reader';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';
import type { CameraFormat } from '../../common/config-schema.std.ts';
import { zxingFormats } from './camera-formats.std.ts';
import { zxingSymbology, type DecodedCode } from './decoder-protocol.std.ts';

/**
 * zxing-wasm fetches its .wasm from a CDN unless told otherwise; a kiosk must never do that.
 * Vite emits the package's .wasm as an app asset and `wasmUrl` points at it, so it is loaded
 * from wherever the app itself is served.
 */
const bundledWasm: ZXingModuleOverrides = {
  locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
};

// Applied on import, so no read can ever run with the CDN default.
prepareZXingModule({ overrides: bundledWasm });

/** Instantiates the WebAssembly now rather than on the first frame; rejects if it cannot load. */
export async function loadZxing(): Promise<void> {
  await prepareZXingModule({ overrides: bundledWasm, fireImmediately: true });
}

/** A ZXing reader for `formats` only: each format more is another pass over every frame. */
export function createZxingDecoder(formats: readonly CameraFormat[]): (image: ImageData) => Promise<DecodedCode[]> {
  const options: ReaderOptions = { formats: zxingFormats(formats) };
  return async (image) => {
    const results = await readBarcodes(image, options);
    return results
      .filter((result) => result.isValid)
      .map((result) => ({ value: result.text, symbology: zxingSymbology(result.symbologyIdentifier) }));
  };
}
