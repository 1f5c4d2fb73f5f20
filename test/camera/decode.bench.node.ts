/**
 * Camera decode bench, in Chromium through the harness (closer to the kiosk than Node):
 * - decode time per 1280x720 camera frame, zxing-wasm against jsQR on the very same frames;
 * - time from the first camera frame (every frame shows a code) to the Scan event, through the
 *   real scanner, worker and WASM — first start (WASM compiled) and later starts.
 * Run: npx tsx test/camera/decode.bench.node.ts [frames=40] [starts=5]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchCameraChromium } from './camera-browser.node.ts';
import { writeCodeVideo } from './code-video.node.ts';
import { serveCameraHarness } from './harness-server.node.ts';
import type { ScanLatency } from './harness/bench-api.std.ts';

const QR_VALUE = 'LOYALTY:4711-0815-CARD';
const frameCount = Number(process.argv[2] ?? 40);
const startCount = Number(process.argv[3] ?? 5);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const ms = (value: number) => `${value.toFixed(1).padStart(7)} ms`;

const workDir = await mkdtemp(join(tmpdir(), 'camera-bench-'));
const [video, harness] = await Promise.all([writeCodeVideo(workDir, { qr: QR_VALUE, ean13: '4006381333931' }), serveCameraHarness()]);
const browser = await launchCameraChromium({ video });
try {
  const context = await browser.newContext();
  await context.grantPermissions(['camera'], { origin: new URL(harness.url).origin });
  const page = await context.newPage();
  await page.goto(`${harness.url}bench.html`);

  // Scanner starts first, so the first one meets a page that has never compiled the WASM.
  const latencies: ScanLatency[] = [];
  for (let i = 0; i < startCount; i++) latencies.push(await page.evaluate(() => window.cameraBench.scanLatency()));
  const timings = await page.evaluate(([frames, qr]) => window.cameraBench.decodeTimings(frames, qr), [frameCount, QR_VALUE] as const);

  const rows = [
    ['zxing-wasm, kiosk formats', timings.zxingKiosk],
    ['zxing-wasm, QR only', timings.zxingQrOnly],
    ['jsQR (QR only)', timings.jsqr],
  ] as const;
  console.log(`Chromium ${browser.version()}, ${timings.width}x${timings.height}, ${timings.frames} camera frames, main thread`);
  console.log('decode per frame             p50        p95     read the QR');
  for (const [name, { ms: times, readQr }] of rows) {
    console.log(`  ${name.padEnd(26)}${ms(percentile(times, 50))} ${ms(percentile(times, 95))}   ${readQr}/${times.length}`);
  }
  const jsqrP50 = percentile(timings.jsqr.ms, 50);
  console.log(`  jsQR p50 / zxing QR-only p50:      ${(jsqrP50 / percentile(timings.zxingQrOnly.ms, 50)).toFixed(2)}x`);
  console.log(`  jsQR p50 / zxing kiosk p50:        ${(jsqrP50 / percentile(timings.zxingKiosk.ms, 50)).toFixed(2)}x`);

  const [first, ...later] = latencies;
  console.log('camera scanner (worker + WASM)   start()    first frame → Scan');
  console.log(`  first start (cold WASM)      ${ms(first!.startMs)}   ${ms(first!.firstFrameToScanMs)}`);
  if (later.length > 0) {
    console.log(
      `  later starts, p50 of ${later.length}       ${ms(percentile(later.map((l) => l.startMs), 50))}   ${ms(percentile(later.map((l) => l.firstFrameToScanMs), 50))}`,
    );
  }
} finally {
  await browser.close();
  await harness.close();
  await rm(workDir, { recursive: true, force: true });
}
