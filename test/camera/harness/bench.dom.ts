import jsQR from 'jsqr';
import { createCameraScanner } from '../../../renderer/camera/camera-scanner.dom.ts';
import { decodeWithZxing, loadZxing } from '../../../renderer/camera/zxing-decoder.dom.ts';

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

async function timeEach(frames: ImageData[], readsQr: (frame: ImageData) => Promise<boolean>) {
  await readsQr(frames[0]!); // warm-up: first-call costs are not per-frame costs
  const ms: number[] = [];
  let readQr = 0;
  for (const frame of frames) {
    const started = performance.now();
    if (await readsQr(frame)) readQr++;
    ms.push(performance.now() - started);
  }
  return { ms, readQr };
}

window.cameraBench = {
  async decodeTimings(frameCount, expectedQr) {
    const frames = await grabFrames(frameCount);
    await loadZxing();
    return {
      frames: frames.length,
      width: frames[0]!.width,
      height: frames[0]!.height,
      zxingKiosk: await timeEach(frames, async (frame) => (await decodeWithZxing(frame)).some((code) => code.value === expectedQr)),
      zxingQrOnly: await timeEach(frames, async (frame) =>
        (await decodeWithZxing(frame, { formats: ['QRCode'] })).some((code) => code.value === expectedQr),
      ),
      jsqr: await timeEach(frames, async (frame) => jsQR(frame.data, frame.width, frame.height)?.data === expectedQr),
    };
  },

  async scanLatency() {
    let scannedAt = 0;
    let scanned: () => void = () => {};
    const firstScan = new Promise<void>((resolve) => (scanned = resolve));
    const scanner = createCameraScanner({
      facingMode: 'environment',
      service: 2,
      onScan: () => {
        scannedAt ||= performance.now();
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
    return { startMs, firstFrameToScanMs: scannedAt - firstFrameAt };
  },
};
