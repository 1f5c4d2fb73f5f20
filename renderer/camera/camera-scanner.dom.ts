import type { CameraFormat } from '../../common/config-schema.std.ts';
import { Scan } from '../../common/scan.std.ts';
import type { CameraErrorKind } from './camera-errors.std.ts';
import type { CameraService, DecoderEngine } from './camera-service.std.ts';
import type { DecodedCode, DecoderReply, DecoderRequest } from './decoder-protocol.std.ts';
import { regionForFrame } from './decode-region.std.ts';
import { startDecoderWorker } from './decoder-worker.dom.ts';
import { cutRegion } from './frame-pixels.dom.ts';
import { openCamera, type CameraFacing } from './open-camera.dom.ts';
import { createRepeatGuard } from './repeat-guard.std.ts';

export type { CameraFacing } from './open-camera.dom.ts';

export interface CameraScannerOptions {
  facingMode: CameraFacing;
  service: CameraService;
  /** The only formats read (`scanner.camera.formats`). */
  formats: readonly CameraFormat[];
  onScan: (scan: Scan) => void;
}

export type CameraStart =
  | { ok: true; stream: MediaStream; engine: DecoderEngine }
  | { ok: false; error: CameraErrorKind; detail?: string }
  /** stop() came first (the screen was left): not a fault, show nothing. */
  | { ok: false; error: 'stopped' };

export interface FrameStats {
  /** Frames the camera delivered. */
  framesSeen: number;
  /** Frames handed to the decoder. */
  framesSent: number;
  /** Frames skipped because the decoder was still busy with an earlier one. */
  framesDropped: number;
  /** `performance.now()` of the first frame. */
  firstFrameAt?: number;
}

export interface CameraScanner {
  /** Opens the camera and the decoder together; resolves once frames flow to the decoder. Call once. */
  start(): Promise<CameraStart>;
  /** Ends every camera track and the decoder. Safe at any time, also while start() is pending. */
  stop(): void;
  stats(): FrameStats;
}

const stoppedFirst = { ok: false, error: 'stopped' } as const;

/**
 * Camera scanning for one screen: create it when the screen shows, stop() it when the screen
 * goes, so the camera is off whenever nothing is scanning. Show `stream` in a CameraPreview.
 */
export function createCameraScanner({ facingMode, service, formats, onScan }: CameraScannerOptions): CameraScanner {
  const stats: FrameStats = { framesSeen: 0, framesSent: 0, framesDropped: 0 };
  const freshValues = createRepeatGuard();
  // Its own element, so scanning does not depend on the preview being mounted.
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  let started = false;
  let stopped = false;
  let stream: MediaStream | undefined;
  let worker: Worker | undefined;

  function stop(): void {
    stopped = true;
    for (const track of stream?.getTracks() ?? []) track.stop();
    worker?.terminate();
    video.srcObject = null;
  }

  function emit(codes: DecodedCode[]): void {
    const fresh = new Set(freshValues(codes.map((code) => code.value), performance.now()));
    for (const { value, symbology } of codes) {
      if (!fresh.delete(value)) continue;
      // A value Scan cannot carry (empty, or a binary payload over 4 KiB) is no loyalty code.
      const scan = Scan.safeParse({ value, source: 'camera', at: Date.now(), ...(symbology && { symbology }) });
      if (scan.success) onScan(scan.data);
    }
  }

  function decodeFrames(decoder: Worker): void {
    let busy = false;
    decoder.addEventListener('message', (event: MessageEvent<DecoderReply>) => {
      if (event.data.type !== 'decoded') return;
      busy = false;
      emit(event.data.codes);
    });
    const onFrame = (now: DOMHighResTimeStamp) => {
      if (stopped) return;
      video.requestVideoFrameCallback(onFrame);
      stats.framesSeen++;
      stats.firstFrameAt ??= now;
      // Drop, never queue: a queued frame is stale by the time it is decoded, and the queue grows.
      if (busy) {
        stats.framesDropped++;
        return;
      }
      busy = true;
      // Mostly the aiming region, scaled down; now and then the whole frame (decode-region.std.ts).
      cutRegion(video, regionForFrame(stats.framesSent, video.videoWidth, video.videoHeight)).then(
        (bitmap) => {
          if (stopped) return bitmap.close();
          decoder.postMessage({ type: 'frame', bitmap } satisfies DecoderRequest, [bitmap]);
          stats.framesSent++;
        },
        () => {
          busy = false;
        },
      );
    };
    video.requestVideoFrameCallback(onFrame);
  }

  async function start(): Promise<CameraStart> {
    if (started) throw new Error('a CameraScanner starts once; create a new one');
    started = true;
    const [camera, decoder] = await Promise.all([openCamera(facingMode), startDecoderWorker(service, formats)]);
    if (camera.ok) stream = camera.stream;
    if (decoder.ok) worker = decoder.worker;
    if (stopped) {
      stop(); // again: the stream and worker arrived after the first stop()
      return stoppedFirst;
    }
    if (!camera.ok) {
      stop();
      return camera;
    }
    if (!decoder.ok) {
      stop();
      return { ok: false, error: 'decoder-unavailable', detail: decoder.detail };
    }
    video.srcObject = camera.stream;
    try {
      await video.play();
    } catch (error) {
      if (stopped) return stoppedFirst;
      stop();
      return { ok: false, error: 'unknown', detail: String(error) };
    }
    if (stopped) return stoppedFirst;
    decodeFrames(decoder.worker);
    return { ok: true, stream: camera.stream, engine: decoder.engine };
  }

  return { start, stop, stats: () => ({ ...stats }) };
}
