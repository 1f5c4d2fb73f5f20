/**
 * Decodes camera frames off the main thread so the preview and touch input stay smooth.
 * The page sends one frame at a time and waits for the reply (it drops frames meanwhile).
 */
import { chooseDecoderEngine } from './camera-service.std.ts';
import type { DecodedCode, DecoderReply, DecoderRequest } from './decoder-protocol.std.ts';
import { createNativeDecoder, nativeSupportedFormats } from './native-decoder.dom.ts';
import { decodeWithZxing, loadZxing } from './zxing-decoder.dom.ts';

let decode: ((bitmap: ImageBitmap) => Promise<DecodedCode[]>) | undefined;

// Typed against the DOM library (the project has no WebWorker lib): both are the worker's globals.
const reply = (message: DecoderReply) => postMessage(message);

let pixels: OffscreenCanvasRenderingContext2D | undefined;

/** ZXing reads RGBA pixels; one canvas is reused for every frame. */
function imageDataOf(bitmap: ImageBitmap): ImageData {
  if (!pixels || pixels.canvas.width !== bitmap.width || pixels.canvas.height !== bitmap.height) {
    const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d', { willReadFrequently: true });
    if (!context) throw new Error('no 2d context in the decoder worker');
    pixels = context;
  }
  pixels.drawImage(bitmap, 0, 0);
  return pixels.getImageData(0, 0, bitmap.width, bitmap.height);
}

async function init(request: Extract<DecoderRequest, { type: 'init' }>): Promise<void> {
  try {
    const nativeFormats = await nativeSupportedFormats();
    const engine = chooseDecoderEngine(request.service, nativeFormats);
    if (engine === 'native') {
      decode = createNativeDecoder(nativeFormats);
    } else {
      await loadZxing();
      decode = (bitmap) => decodeWithZxing(imageDataOf(bitmap));
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
