/** Per-frame timings in ms and how many frames each decoder read the QR code from. */
export interface DecodeTimings {
  frames: number;
  width: number;
  height: number;
  zxingKiosk: { ms: number[]; readQr: number };
  zxingQrOnly: { ms: number[]; readQr: number };
  jsqr: { ms: number[]; readQr: number };
}

/** One camera scanner session, all in ms. */
export interface ScanLatency {
  /** start() until the camera and decoder are up. */
  startMs: number;
  /** First camera frame (every frame shows the code) until the scan event. */
  firstFrameToScanMs: number;
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
