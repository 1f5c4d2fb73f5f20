import jsQR from 'jsqr';
import { CAMERA_FORMATS, DEFAULT_CAMERA_FORMATS } from '../../../common/config-schema.std.ts';
import { createCameraScanner } from '../../../renderer/camera/camera-scanner.dom.ts';
import { fullFrameRegion, regionForFrame, type DecodeRegion } from '../../../renderer/camera/decode-region.std.ts';
import { createPixelReader, cutRegion } from '../../../renderer/camera/frame-pixels.dom.ts';
import { createZxingDecoder, loadZxing } from '../../../renderer/camera/zxing-decoder.dom.ts';
import type { DecoderTimings } from './bench-api.std.ts';

/** Distinct consecutive camera frames as RGBA pixels, the same input for every decoder. */
async function grabFrames(count: number): Promise<ImageData[]> {
  const stream = await navigator.mediaDevices.getUserMedia({ video: { width: { ideal: 1280 }, height: { ideal: 720 } } });
  const video = Object.assign(document.createElement('video'), { muted: true, srcObject: stream });
  await video.play();
  const context = new OffscreenCanvas(video.videoWidth, video.videoHeight).getContext('2d', { willReadFrequently: true })!;
  const frames: ImageData[] = [];
  while (frames.length < count) {
    await new Promise((resolve) => video.requestVideoFrameCallback(resolve));
    context.drawImage(video, 0, 0);
    frames.push(context.getImageData(0, 0, video.videoWidth, video.videoHeight));
  }
  for (const track of stream.getTracks()) track.stop();
  return frames;
}

async function timeEach<Frame>(frames: Frame[], readsQr: (frame: Frame, index: number) => Promise<boolean>): Promise<DecoderTimings> {
  await readsQr(frames[0]!, 0); // warm-up: first-call costs are not per-frame costs
  const ms: number[] = [];
  let readQr = 0;
  for (const [index, frame] of frames.entries()) {
    const started = performance.now();
    if (await readsQr(frame, index)) readQr++;
    ms.push(performance.now() - started);
  }
  return { ms, readQr };
}

/**
 * The scanner's path for one frame, timed from the camera's full frame: cut and scale the region
 * (camera-scanner.dom.ts), read its pixels and decode them (decoder.worker.ts).
 */
function regionReader(formats: Parameters<typeof createZxingDecoder>[0], expectedQr: string) {
  const decode = createZxingDecoder(formats);
  const pixelsOf = createPixelReader();
  return async (frame: ImageBitmap, region: DecodeRegion) => {
    const cut = await cutRegion(frame, region);
    try {
      return (await decode(pixelsOf(cut))).some((code) => code.value === expectedQr);
    } finally {
      cut.close();
    }
  };
}

window.cameraBench = {
  async decodeTimings(frameCount, expectedQr) {
    const frames = await grabFrames(frameCount);
    // The scanner cuts from the camera frame; a bitmap is the nearest thing to it here.
    const bitmaps = await Promise.all(frames.map((frame) => createImageBitmap(frame)));
    const { width, height } = frames[0]!;
    await loadZxing();
    const kiosk = regionReader(DEFAULT_CAMERA_FORMATS, expectedQr);
    const whole = fullFrameRegion(width, height);
    const allFormats = regionReader(CAMERA_FORMATS, expectedQr);
    const qrOnly = regionReader(['qr'], expectedQr);
    return {
      frames: frames.length,
      width,
      height,
      kioskFormats: [...DEFAULT_CAMERA_FORMATS],
      kiosk: await timeEach(bitmaps, (frame, index) => kiosk(frame, regionForFrame(index, width, height))),
      kioskWholeFrame: await timeEach(bitmaps, (frame) => kiosk(frame, whole)),
      allFormatsWholeFrame: await timeEach(bitmaps, (frame) => allFormats(frame, whole)),
      zxingQrOnly: await timeEach(bitmaps, (frame) => qrOnly(frame, whole)),
      jsqr: await timeEach(frames, async (frame) => jsQR(frame.data, frame.width, frame.height)?.data === expectedQr),
    };
  },

  async scanLatency() {
    let scannedAt = 0;
    let framesSentAtScan = 0;
    let scanned: () => void = () => {};
    const firstScan = new Promise<void>((resolve) => (scanned = resolve));
    const scanner = createCameraScanner({
      facingMode: 'environment',
      service: 2,
      formats: DEFAULT_CAMERA_FORMATS,
      onScan: () => {
        if (!scannedAt) {
          scannedAt = performance.now();
          framesSentAtScan = scanner.stats().framesSent;
        }
        scanned();
      },
    });
    const started = performance.now();
    const result = await scanner.start();
    if (!result.ok) throw new Error(`camera did not start: ${result.error}`);
    const startMs = performance.now() - started;
    await firstScan;
    const { firstFrameAt = NaN } = scanner.stats();
    scanner.stop();
    return { startMs, firstFrameToScanMs: scannedAt - firstFrameAt, framesSentAtScan };
  },
};
