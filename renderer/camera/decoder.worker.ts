/**
 * Decodes camera frames off the main thread so the preview and touch input stay smooth.
 * The page sends one frame at a time and waits for the reply (it drops frames meanwhile).
 */
import { chooseDecoderEngine } from './camera-service.std.ts';
import type { DecodedCode, DecoderReply, DecoderRequest } from './decoder-protocol.std.ts';
import { createPixelReader } from './frame-pixels.dom.ts';
import { createNativeDecoder, nativeSupportedFormats } from './native-decoder.dom.ts';
import { createZxingDecoder, loadZxing } from './zxing-decoder.dom.ts';

let decode: ((bitmap: ImageBitmap) => Promise<DecodedCode[]>) | undefined;

// Typed against the DOM library (the project has no WebWorker lib): both are the worker's globals.
const reply = (message: DecoderReply) => postMessage(message);

async function init({ service, formats }: Extract<DecoderRequest, { type: 'init' }>): Promise<void> {
  try {
    const supported = await nativeSupportedFormats();
    const engine = chooseDecoderEngine(service, formats, supported);
    if (engine === 'native') {
      decode = createNativeDecoder(formats, supported);
    } else {
      await loadZxing();
      const pixelsOf = createPixelReader();
      const decodeZxing = createZxingDecoder(formats);
      decode = (bitmap) => decodeZxing(pixelsOf(bitmap));
    }
    reply({ type: 'ready', engine });
  } catch (error) {
    reply({ type: 'init-failed', message: String(error) });
  }
}

async function decodeFrame(bitmap: ImageBitmap): Promise<void> {
  let codes: DecodedCode[] = [];
  try {
    if (decode) codes = await decode(bitmap);
  } catch {
    // An undecodable frame is not worth a failure: the next one is coming.
  } finally {
    bitmap.close();
  }
  reply({ type: 'decoded', codes });
}

addEventListener('message', (event: MessageEvent<DecoderRequest>) => {
  const request = event.data;
  void (request.type === 'init' ? init(request) : decodeFrame(request.bitmap));
});
