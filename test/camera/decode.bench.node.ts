/**
 * Camera decode bench, in Chromium through the harness (closer to the kiosk than Node):
 * - decode time per 1280x720 camera frame, zxing-wasm against jsQR on the very same frames;
 * - time from the first camera frame (every frame shows a code) to the Scan event, through the
 *   real scanner, worker and WASM — first start (WASM compiled) and later starts.
 * Part of `npm run bench` (test/bench/run.node.ts).
 * Alone: npx tsx test/camera/decode.bench.node.ts [frames=40] [starts=5]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatTable, ms, percentile, ratio, summarize, type BenchReport } from '../bench/stats.std.ts';
import { launchCameraChromium } from './camera-browser.node.ts';
import { writeCodeVideo } from './code-video.node.ts';
import { serveCameraHarness } from './harness-server.node.ts';
import type { ScanLatency } from './harness/bench-api.std.ts';

const QR_VALUE = 'LOYALTY:4711-0815-CARD';

export async function benchCameraDecode(frameCount = 40, startCount = 5): Promise<BenchReport> {
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

    const decoders = [
      ['zxing-wasm, kiosk formats', timings.zxingKiosk],
      ['zxing-wasm, QR only', timings.zxingQrOnly],
      ['jsQR (QR only)', timings.jsqr],
    ] as const;
    const jsqrP50 = percentile(timings.jsqr.ms, 50);
    const [first, ...later] = latencies;
    const laterStart = later.length > 0 ? summarize(later.map((latency) => latency.startMs)) : null;
    const laterScan = later.length > 0 ? summarize(later.map((latency) => latency.firstFrameToScanMs)) : null;
    return {
      tables: [
        {
          title:
            `Camera decode per frame: Chromium ${browser.version()}, ${timings.width}x${timings.height}, ` +
            `${timings.frames} camera frames, main thread`,
          columns: ['decoder', 'p50', 'p95', 'read the QR', 'jsQR p50 ÷ this p50'],
          rows: decoders.map(([name, { ms: times, readQr }]) => [
            name,
            ms(percentile(times, 50)),
            ms(percentile(times, 95)),
            `${readQr}/${times.length}`,
            ratio(jsqrP50 / percentile(times, 50)),
          ]),
          notes: ['Each decoder decodes one frame as warm-up first (in the page), not counted.'],
        },
        {
          title: 'Camera scanner (worker + WASM)',
          columns: ['start', 'start()', 'first frame → Scan'],
          rows: [
            ['first start (cold WASM)', ms(first!.startMs), ms(first!.firstFrameToScanMs)],
            ...(laterStart && laterScan ? [[`later starts, p50 of ${later.length}`, ms(laterStart.p50), ms(laterScan.p50)]] : []),
          ],
        },
      ],
      figures: {
        unit: 'ms',
        chromium: browser.version(),
        frames: timings.frames,
        size: `${timings.width}x${timings.height}`,
        decode: Object.fromEntries(
          decoders.map(([name, { ms: times, readQr }]) => [name, { ...summarize(times), p95: percentile(times, 95), readQr }]),
        ),
        jsqrP50ToZxingQrOnlyP50: jsqrP50 / percentile(timings.zxingQrOnly.ms, 50),
        jsqrP50ToZxingKioskP50: jsqrP50 / percentile(timings.zxingKiosk.ms, 50),
        scanner: { firstStart: first, laterStartMs: laterStart, laterFirstFrameToScanMs: laterScan },
      },
    };
  } finally {
    await browser.close();
    await harness.close();
    await rm(workDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await benchCameraDecode(Number(process.argv[2] ?? 40), Number(process.argv[3] ?? 5));
  for (const table of report.tables) console.log(`${formatTable(table)}\n`);
}
