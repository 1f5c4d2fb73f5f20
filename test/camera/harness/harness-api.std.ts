import type { CameraFormat } from '../../../common/config-schema.std.ts';
import type { Scan } from '../../../common/scan.std.ts';
import type { CameraStart, FrameStats } from '../../../renderer/camera/camera-scanner.dom.ts';
import type { CameraService } from '../../../renderer/camera/camera-service.std.ts';
import type { DecodedCode } from '../../../renderer/camera/decoder-protocol.std.ts';

/** What the harness page reports of a start, in a form that crosses page.evaluate. */
export type HarnessStart = Exclude<CameraStart, { ok: true }> | { ok: true; engine: string; width: number; height: number };

/** Drives the real camera scanner from a test via page.evaluate(() => window.cameraHarness…). */
export interface CameraHarness {
  /** `formats`: scanner.camera.formats, the default when left out. */
  start(service: CameraService, formats?: readonly CameraFormat[]): Promise<HarnessStart>;
  /** Calls stop() while start() is still pending, as a screen left in a hurry would. */
  startAndStopAtOnce(service: CameraService): Promise<HarnessStart>;
  stop(): void;
  scans: Scan[];
  /** For each scan, the frames sent to the decoder by then, the one that read it included. */
  scanFrames: number[];
  stats(): FrameStats;
  /** readyState of every track any getUserMedia call on this page handed out. */
  trackStates(): MediaStreamTrackState[];
  /** Decodes a base64 PNG with the app's ZXing setup (every format the kiosk can read, bundled WASM). */
  decodeImage(pngBase64: string): Promise<DecodedCode[]>;
  /** Whether the mounted CameraPreview plays the scanner's stream. */
  previewPlaysStream(): boolean;
}

declare global {
  interface Window {
    cameraHarness: CameraHarness;
  }
}
