import { mount, unmount } from 'svelte';
import { CAMERA_FORMATS, DEFAULT_CAMERA_FORMATS, type CameraFormat } from '../../../common/config-schema.std.ts';
import type { Scan } from '../../../common/scan.std.ts';
import CameraPreview from '../../../renderer/camera/CameraPreview.svelte';
import { createCameraScanner, type CameraScanner, type CameraStart } from '../../../renderer/camera/camera-scanner.dom.ts';
import type { CameraService } from '../../../renderer/camera/camera-service.std.ts';
import { createZxingDecoder } from '../../../renderer/camera/zxing-decoder.dom.ts';
import type { HarnessStart } from './harness-api.std.ts';

// Every stream the page opens, so a test can prove none is left running (the real call still runs).
const openedStreams: MediaStream[] = [];
const realGetUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
navigator.mediaDevices.getUserMedia = async (constraints) => {
  const stream = await realGetUserMedia(constraints);
  openedStreams.push(stream);
  return stream;
};

const scans: Scan[] = [];
// framesSent when each scan came: which decode read it (decode-region.std.ts).
const scanFrames: number[] = [];
const previewTarget = document.getElementById('preview')!;
let scanner: CameraScanner | undefined;
let preview: ReturnType<typeof mount> | undefined;
let previewStream: MediaStream | undefined;

const newScanner = (service: CameraService, formats: readonly CameraFormat[] = DEFAULT_CAMERA_FORMATS) =>
  (scanner = createCameraScanner({
    facingMode: 'environment',
    service,
    formats,
    onScan: (scan) => {
      scans.push(scan);
      scanFrames.push(scanner!.stats().framesSent);
    },
  }));

// A MediaStream cannot cross page.evaluate; report what the test checks instead.
function reported(result: CameraStart): HarnessStart {
  if (!result.ok) return result;
  const { width = 0, height = 0 } = result.stream.getVideoTracks()[0]?.getSettings() ?? {};
  return { ok: true, engine: result.engine, width, height };
}

window.cameraHarness = {
  scans,
  scanFrames,
  async start(service, formats) {
    const result = await newScanner(service, formats).start();
    if (result.ok) {
      previewStream = result.stream;
      preview = mount(CameraPreview, { target: previewTarget, props: { stream: result.stream, label: 'Camera' } });
    }
    return reported(result);
  },
  async startAndStopAtOnce(service) {
    const pending = newScanner(service).start();
    scanner!.stop();
    return reported(await pending);
  },
  stop() {
    scanner?.stop();
    if (preview) void unmount(preview);
  },
  stats: () => scanner!.stats(),
  trackStates: () => openedStreams.flatMap((stream) => stream.getTracks().map((track) => track.readyState)),
  async decodeImage(pngBase64) {
    const png = Uint8Array.from(atob(pngBase64), (char) => char.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([png], { type: 'image/png' }));
    const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
    context.drawImage(bitmap, 0, 0);
    return createZxingDecoder(CAMERA_FORMATS)(context.getImageData(0, 0, bitmap.width, bitmap.height));
  },
  previewPlaysStream() {
    const video = previewTarget.querySelector('video');
    return !!video && video.srcObject === previewStream && !video.paused && video.videoWidth > 0;
  },
};
