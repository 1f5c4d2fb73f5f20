/** Per-frame timings in ms and how many frames each decoder read the QR code from. */
export interface DecoderTimings {
  ms: number[];
  readQr: number;
}

export interface DecodeTimings {
  frames: number;
  width: number;
  height: number;
  /** The kiosk's formats (`scanner.camera.formats`), named as in the config. */
  kioskFormats: string[];
  /** What the kiosk does per frame: the aiming region scaled down, the whole frame every Nth; cut, pixels and decode. */
  kiosk: DecoderTimings;
  /** The kiosk's formats on every whole frame (no region): what the region saves. */
  kioskWholeFrame: DecoderTimings;
  /** All six formats the kiosk can read, every whole frame: the reader before `scanner.camera.formats`. */
  allFormatsWholeFrame: DecoderTimings;
  zxingQrOnly: DecoderTimings;
  jsqr: DecoderTimings;
}

/** One camera scanner session, all in ms. */
export interface ScanLatency {
  /** start() until the camera and decoder are up. */
  startMs: number;
  /** First camera frame (every frame shows the code) until the scan event. */
  firstFrameToScanMs: number;
  /** Frames sent to the decoder when the scan came, the one that read it included. */
  framesSentAtScan: number;
}

/** Measures in the page via page.evaluate(() => window.cameraBench…). */
export interface CameraBench {
  decodeTimings(frameCount: number, expectedQr: string): Promise<DecodeTimings>;
  scanLatency(): Promise<ScanLatency>;
}

declare global {
  interface Window {
    cameraBench: CameraBench;
  }
}
