import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { buildOutput, missingBuild } from '../../main/paths/build-output.node.ts';
import { launchChromium } from '../support/chromium.node.ts';
import { cardOf, openKiosk, scannerBurst, startKiosk } from '../support/kiosk-journey.node.ts';
import { openPtyPair } from '../support/pty.node.ts';
import { epochNow, pageClockOffset, waitForSerialConnected, waitUntilNotBusy } from './kiosk-page.node.ts';
import { DEFAULT_COUNTS, sample, timed } from './measure.std.ts';
import { ms, percentile, ratio, summarize, type BenchReport } from './stats.std.ts';

/**
 * A shopper's visit, three figures (issue 5):
 * - scan → voucher details painted, beside the bare sandbox round trip of the same run;
 * - the renderer's JS heap after 500 visits against after 20 (a leak shows as growth);
 * - the initial renderer bundle, gzipped, and what loads only later (the camera decoder).
 */

/** Issue #15 §7: scan → painted p95 within this factor of (bare round trip p95 + serial → page p95 + one frame). */
const TARGET_FACTOR = 1.25;
/** One frame at 60 Hz. */
const FRAME_MS = 16.7;

/** Active demo vouchers that belong to a contact (no identification needed), same promotion and media. */
const VOUCHER_CODES = ['KOFFIE24', 'KFQ7M2XA'] as const;

interface PaintTimes {
  /** The `scan` event's WebSocket message reached the page (its MessageEvent's timeStamp). */
  scanArrived: number;
  /** The page sent lookupScan. */
  lookupSent: number;
  /** lookupScan's answer reached the page. */
  lookupAnswered: number;
  /** The MutationObserver saw [data-testid=voucher-details] in the DOM. */
  inserted: number;
  /** The next requestAnimationFrame callback: the frame that paints it starts. */
  frame: number;
  /** A task posted from that callback: that frame's rendering is done. */
  afterFrame: number;
  /** The page sent checkVoucher (the voucher screen's validity check), if it did by the frame's end. */
  checkSent: number | null;
  /** Bridge calls the page sent between the scan's arrival and the paint, by name, in order. */
  calls: string[];
}

declare global {
  interface Window {
    benchPaint?: { arm(): void; wait(): Promise<PaintTimes> };
    gc?: () => void;
  }
}

// ---------------------------------------------------------------------------------------------
// (a) Scan → voucher details painted

export async function benchScanToVoucherPaint(counts = DEFAULT_COUNTS): Promise<BenchReport> {
  const pty = await openPtyPair();
  const kiosk = await startKiosk({
    'session.scanner_type': 'hand_scanner',
    'scanner.connection': 'serial',
    'scanner.serial.path': pty.scannerPath,
  });
  const browser = await launchChromium();
  try {
    const page = await openKiosk(browser, kiosk);
    await waitForSerialConnected(page, pty.scannerPath);
    await installPaintProbe(page);

    // The bare round trip: Find Voucher against the kiosk's own embedded sandbox, its API key.
    const headers = { Accept: 'application/json', Authorization: `Bearer ${kiosk.manifest.credentials.api_key}` };
    const bareFind = async (code: string) => {
      const url = new URL(`${kiosk.manifest.base_url}/vouchers/find`);
      url.searchParams.set('code', code);
      const response = await fetch(url, { headers });
      const text = await response.text();
      if (!response.ok) throw new Error(`Find Voucher answered ${response.status}: ${text}`);
    };

    // The bridge alone, timed in the page: a call main answers from memory.
    const bareBridge = () =>
      page.evaluate(async () => {
        const started = performance.now();
        await window.kiosk.getScannerStatus();
        return performance.now() - started;
      });

    const scanToPaint = async (code: string) => {
      await page.evaluate(() => window.benchPaint!.arm());
      const writtenAt = epochNow();
      await pty.write(`${code}\r`);
      const painted = await page.evaluate(() => window.benchPaint!.wait());
      // The voucher check that follows the paint finishes before the shopper goes back.
      await waitUntilNotBusy(page);
      const title = await page.getByTestId('voucher-screen').getByRole('heading', { level: 1 }).textContent();
      if (!title?.includes('Gratis koffie')) throw new Error(`voucher screen for ${code} shows "${title}"`);
      await page.getByTestId('voucher-screen').getByRole('button', { name: 'Back', exact: true }).tap();
      await page.getByTestId('attract-screen').waitFor();
      await waitUntilNotBusy(page);
      return { writtenAt, ...painted };
    };

    const offsetBefore = await pageClockOffset(page);
    const steps = await sample(counts, async (index) => {
      // Alternating codes keeps every scan past the serial duplicate filter.
      const code = VOUCHER_CODES[index % VOUCHER_CODES.length]!;
      // Alternate which goes first; both run while the attract screen is idle.
      if (index % 2 === 0) {
        const [find] = await timed(() => bareFind(code));
        const bridge = await bareBridge();
        return { find, bridge, paint: await scanToPaint(code) };
      }
      const paint = await scanToPaint(code);
      const bridge = await bareBridge();
      const [find] = await timed(() => bareFind(code));
      return { find, bridge, paint };
    });
    const offsetAfter = await pageClockOffset(page);
    await page.close();

    const offset = (offsetBefore.offsetMs + offsetAfter.offsetMs) / 2;
    const paints = steps.map((step) => step.paint);
    const sinceWrite = (at: (paint: (typeof paints)[number]) => number) => paints.map((paint) => at(paint) - paint.writtenAt - offset);
    const between = (from: keyof PaintTimes, to: keyof PaintTimes) => paints.map((paint) => (paint[to] as number) - (paint[from] as number));
    const series = {
      frame: sinceWrite((paint) => paint.frame),
      afterFrame: sinceWrite((paint) => paint.afterFrame),
      inserted: sinceWrite((paint) => paint.inserted),
      serialToPage: sinceWrite((paint) => paint.scanArrived),
      pageToLookup: between('scanArrived', 'lookupSent'),
      lookup: between('lookupSent', 'lookupAnswered'),
      answerToDom: between('lookupAnswered', 'inserted'),
      domToFrame: between('inserted', 'frame'),
      frameToDone: between('frame', 'afterFrame'),
      bridge: steps.map((step) => step.bridge),
      find: steps.map((step) => step.find),
    };
    const stats = Object.fromEntries(
      Object.entries(series).map(([name, values]) => [name, { ...summarize(values), p95: percentile(values, 95) }]),
    ) as Record<keyof typeof series, ReturnType<typeof summarize> & { p95: number }>;
    const findP50 = stats.find.p50;
    const row = (name: string, summary: (typeof stats)['find']) => [
      name,
      String(summary.n),
      ms(summary.p50),
      ms(summary.p95),
      ms(summary.p99),
      ratio(summary.p50 / findP50),
    ];
    // Issue #15 §7: painted p95 ≤ 1.25 × (bare round trip p95 + serial → page p95 + one frame), all from this run.
    const limit = stats.find.p95 + stats.serialToPage.p95 + FRAME_MS;
    const target = TARGET_FACTOR * limit;
    const checkBeforeInsertion = paints.filter((paint) => paint.checkSent !== null && paint.checkSent < paint.inserted).length;
    const callSequences = [...new Set(paints.map((paint) => paint.calls.join(' → ')))];
    return {
      tables: [
        {
          title:
            `Scan (serial line written) → voucher details painted: ${counts.iterations} scans after ${counts.warmup} warm-up ` +
            `(Chromium ${browser.version()}, browser host, demo kiosk)`,
          columns: ['measure', 'n', 'p50', 'p95', 'p99', 'p50 ÷ bare find p50'],
          rows: [
            row('scan → details painted (rAF after insertion)', stats.frame),
            row('  scan → that frame done (task after rAF)', stats.afterFrame),
            row('  scan → details in the DOM', stats.inserted),
            row('stage 1: serial → scan event in the page', stats.serialToPage),
            row('stage 2: scan event → lookupScan sent (renderer)', stats.pageToLookup),
            row('stage 3: lookupScan round trip (bridge + 2 lookups)', stats.lookup),
            row('stage 4: answer → details in the DOM (visit, Svelte)', stats.answerToDom),
            row('stage 5: DOM → next frame (rAF)', stats.domToFrame),
            row('stage 6: frame → frame done', stats.frameToDone),
            row('bare bridge round trip: getScannerStatus', stats.bridge),
            row('bare sandbox round trip: fetch Find Voucher', stats.find),
          ],
          notes: [
            `Target: painted p95 ≤ ${TARGET_FACTOR} × (find p95 ${ms(stats.find.p95)} + serial → page p95 ${ms(stats.serialToPage.p95)} + ` +
              `${ms(FRAME_MS)}) = ${ms(target)}: ${ms(stats.frame.p95)}, ${stats.frame.p95 <= target ? 'met' : 'NOT met'} ` +
              `(painted p95 ÷ limit: ${ratio(stats.frame.p95 / limit)}). One run, one noisy machine: read the ratios, not the absolute figures.`,
            `Bridge calls from the scan to the paint: ${callSequences.join(' | ')}; checkVoucher sent before the details were in the DOM in ${checkBeforeInsertion}/${paints.length}.`,
            `Codes ${VOUCHER_CODES.join(' / ')} alternate (contact vouchers: no identification); each visit ends with Back → attract.`,
            'Scan path: pty → kiosk host SerialScanner → bridge → lookupScan (card + voucher lookups in parallel) → voucher screen.',
            'Stages are timed in the page: WebSocket sends wrapped, arrivals by the messages’ timeStamp; stage 1 against the bench clock.',
            'Bare round trips, interleaved with the scans: getScannerStatus from the page (bridge only); fetch from the bench process to the kiosk’s embedded sandbox with its API key.',
            `Page clock − bench clock: ${ms(offsetBefore.offsetMs)} (±${ms(offsetBefore.uncertaintyMs)}) before, ` +
              `${ms(offsetAfter.offsetMs)} (±${ms(offsetAfter.uncertaintyMs)}) after; the mean is subtracted.`,
          ],
        },
      ],
      figures: {
        ...counts,
        unit: 'ms',
        chromium: browser.version(),
        scanToPainted: stats.frame,
        scanToFrameDone: stats.afterFrame,
        scanToInserted: stats.inserted,
        stages: {
          serialToPage: stats.serialToPage,
          scanEventToLookupSent: stats.pageToLookup,
          lookupRoundTrip: stats.lookup,
          answerToDom: stats.answerToDom,
          domToFrame: stats.domToFrame,
          frameToDone: stats.frameToDone,
        },
        bareBridge: stats.bridge,
        bareFindVoucher: stats.find,
        callSequences,
        checkSentBeforeInsertion: checkBeforeInsertion,
        target: { factor: TARGET_FACTOR, frameMs: FRAME_MS, limitMs: limit, targetMs: target, met: stats.frame.p95 <= target },
        clockOffset: { before: offsetBefore, after: offsetAfter },
        ratios: {
          paintedP50ToFindP50: stats.frame.p50 / findP50,
          paintedP95ToFindP50: stats.frame.p95 / findP50,
          paintedP95ToLimit: stats.frame.p95 / limit,
        },
      },
    };
  } finally {
    await browser.close();
    // The port closes with the kiosk first: a pty pulled from under a pending read can hang the binding.
    await kiosk.host.stop();
    await pty.close();
  }
}

/**
 * `benchPaint.arm()` before a scan; `benchPaint.wait()` resolves once the voucher details are
 * painted, with when each stage of the way happened in the page: the bridge's WebSocket frames are
 * timed by wrapping `WebSocket.prototype.send` and by the messages' own timeStamp (so a listener
 * that runs after the app's still reads when a message arrived). Plain source text: tsx would
 * wrap named functions in a `__name` helper the page lacks.
 */
const PAINT_PROBE = `(() => {
  const now = () => performance.timeOrigin + performance.now();
  let armed = false;
  let result = null;
  let waiter = null;
  let stages = null;
  const finish = (times) => {
    result = times;
    if (waiter) waiter(times);
  };
  const sentCalls = new Map();
  let watched = null;
  const onMessage = (event) => {
    if (!stages) return;
    const at = performance.timeOrigin + event.timeStamp;
    const message = JSON.parse(String(event.data));
    if (message.event === 'scan' && stages.scanArrived === undefined) stages.scanArrived = at;
    if ('id' in message && sentCalls.get(message.id) === 'lookupScan') stages.lookupAnswered ??= at;
  };
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (watched !== this) {
      watched = this;
      this.addEventListener('message', onMessage);
    }
    if (stages) {
      const at = now();
      const { id, call } = JSON.parse(String(data));
      sentCalls.set(id, call);
      stages.calls.push(call);
      if (call === 'lookupScan') stages.lookupSent ??= at;
      if (call === 'checkVoucher') stages.checkSent ??= at;
    }
    return send.call(this, data);
  };
  new MutationObserver(() => {
    if (!armed || !document.querySelector('[data-testid=voucher-details]')) return;
    armed = false;
    stages.inserted = now();
    requestAnimationFrame(() => {
      stages.frame = now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        const times = { ...stages, afterFrame: now(), checkSent: stages.checkSent ?? null };
        stages = null;
        finish(times);
      };
      channel.port2.postMessage(null);
    });
  }).observe(document.body, { childList: true, subtree: true });
  window.benchPaint = {
    arm() {
      if (document.querySelector('[data-testid=voucher-details]')) throw new Error('voucher details already on screen');
      armed = true;
      result = null;
      waiter = null;
      sentCalls.clear();
      stages = { calls: [] };
    },
    wait() {
      return new Promise((resolve, reject) => {
        if (result) return resolve(result);
        waiter = resolve;
        setTimeout(() => reject(new Error('voucher details not painted within 10 s')), 10000);
      });
    },
  };
})()`;

async function installPaintProbe(page: Page) {
  await page.evaluate(PAINT_PROBE);
  // One bridge call through the wrapped send, so the probe listens to the bridge's socket from now on.
  await page.evaluate(() => window.kiosk.getScannerStatus());
}

// ---------------------------------------------------------------------------------------------
// (b) Renderer JS heap over many visits

const HEAP_CHECKPOINTS = [20, 100, 200, 300, 400, 500] as const;
const DEMO_EMAILS = [
  'sanne.devries@example.nl',
  'daan.jansen@example.nl',
  'emma.bakker@example.nl',
  'olivia.smith@example.com',
  'james.wilson@example.co.uk',
];

interface HeapReading {
  visit: number;
  /** performance.memory.usedJSHeapSize after window.gc() twice (precise memory info on). */
  usedJSHeapSize: number;
  /** CDP Runtime.getHeapUsage, the same heap read another way. */
  cdpUsedSize: number;
  nodes: number;
  jsEventListeners: number;
  documents: number;
}

export async function benchVisitHeap(checkpoints: readonly number[] = HEAP_CHECKPOINTS): Promise<BenchReport> {
  const kiosk = await startKiosk({ 'session.scanner_type': 'hand_scanner' });
  // --enable-precise-memory-info: without it performance.memory is bucketed and cached.
  const browser = await launchChromium({ args: ['--js-flags=--expose-gc', '--enable-precise-memory-info'] });
  try {
    const page = await openKiosk(browser, kiosk);
    const cdp = await page.context().newCDPSession(page);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    const cards = DEMO_EMAILS.map((email) => cardOf(kiosk.manifest, email).card);

    // Under load the browser itself can stall over 50 ms between two keys of a burst (seen here:
    // 50–120 ms), which splits it: the kiosk then reads an unknown code or a person typing. Such
    // a misread is counted; the shopper taps "Start over" if need be and scans again.
    const misreads: string[] = [];
    const visit = async (index: number) => {
      const home = page.getByTestId('home-screen');
      const notice = page.getByTestId('notice-screen');
      for (let attempt = 1; ; attempt++) {
        await scannerBurst(page, cards[index % cards.length]!);
        const landed = await home
          .or(notice)
          .waitFor({ timeout: 5000 })
          .then(() => true, () => false);
        if (landed && (await home.isVisible())) break;
        misreads.push(`visit ${index + 1}: ${landed ? await notice.getByRole('heading', { level: 1 }).textContent() : 'no scan'}`);
        if (attempt === 3) throw new Error(`card misread three times in a row: ${misreads.slice(-3).join('; ')}`);
        if (!landed) continue;
        if (attempt === 3) throw new Error(`card misread three times in a row: ${misreads.slice(-3).join('; ')}`);
        await notice.getByRole('button', { name: 'Start over', exact: true }).tap();
        await page.getByTestId('attract-screen').waitFor();
        await waitUntilNotBusy(page);
      }
      // Home is complete once both the balance and the voucher page (or "no vouchers") are shown.
      await page.waitForFunction(
        () => {
          const screen = document.querySelector('[data-testid=home-screen]');
          return !!screen?.querySelector('[data-testid=credit-balance]') && !!screen.querySelector('[data-testid=voucher-list], .empty');
        },
        undefined,
        { polling: 'raf' },
      );
      await home.getByRole('button', { name: 'I’m done', exact: true }).tap();
      await page.getByTestId('attract-screen').waitFor();
      await waitUntilNotBusy(page);
    };
    const readHeap = async (visitNumber: number): Promise<HeapReading> => {
      const usedJSHeapSize = await page.evaluate(async () => {
        if (!window.gc) throw new Error('window.gc missing: Chromium needs --js-flags=--expose-gc');
        window.gc();
        await new Promise((resolve) => setTimeout(resolve, 50));
        window.gc();
        return (performance as Performance & { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize;
      });
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      const counters = await cdp.send('Memory.getDOMCounters');
      return { visit: visitNumber, usedJSHeapSize, cdpUsedSize: usedSize, ...counters };
    };

    const total = checkpoints.at(-1)!;
    const warmup = checkpoints[0]!;
    const durations: number[] = [];
    const readings: HeapReading[] = [];
    const started = performance.now();
    for (let index = 0; index < total; index++) {
      const [duration] = await timed(() =>
        visit(index).catch(async (error: unknown) => {
          const shown = await page.evaluate(() => document.querySelector('main')?.innerText.replace(/\s+/g, ' ').slice(0, 200));
          throw new Error(`visit ${index + 1} failed (${String(error).split('\n')[0]}); on screen: ${shown}`);
        }),
      );
      durations.push(duration);
      const visitNumber = index + 1;
      if (checkpoints.includes(visitNumber)) readings.push(await readHeap(visitNumber));
    }
    const seconds = (performance.now() - started) / 1000;
    await page.close();

    const base = readings[0]!;
    const last = readings.at(-1)!;
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
    const span = Math.min(100, total - warmup);
    const early = summarize(durations.slice(warmup, warmup + span));
    const late = summarize(durations.slice(total - span));
    const decoderFetched = requested.filter((pathname) => /decoder\.worker|zxing|\.wasm$/.test(pathname));
    return {
      tables: [
        {
          title: `Renderer JS heap over ${total} simulated shopper visits (wedge-scanned card → home → “I’m done” → attract)`,
          columns: ['after visit', 'usedJSHeapSize', `÷ visit ${warmup}`, 'CDP heap used', `÷ visit ${warmup}`, 'DOM nodes', 'JS listeners'],
          rows: readings.map((reading) => [
            String(reading.visit),
            mb(reading.usedJSHeapSize),
            ratio(reading.usedJSHeapSize / base.usedJSHeapSize),
            mb(reading.cdpUsedSize),
            ratio(reading.cdpUsedSize / base.cdpUsedSize),
            String(reading.nodes),
            String(reading.jsEventListeners),
          ]),
          notes: [
            `Visit ${last.visit} − visit ${base.visit}: ${mb(last.usedJSHeapSize - base.usedJSHeapSize)} ` +
              `(${((last.usedJSHeapSize - base.usedJSHeapSize) / (last.visit - base.visit) / 1024).toFixed(2)} KB per visit).`,
            `Read on the attract screen after window.gc() twice (--js-flags=--expose-gc, --enable-precise-memory-info); visits 1–${warmup} are warm-up.`,
            `Cards of the ${DEMO_EMAILS.length} demo shoppers in turn, as one burst of trusted key events each (see scannerBurst); ${total} visits took ${seconds.toFixed(1)} s ` +
              `(${(total / seconds).toFixed(2)} visits/s), each driven through the UI and the kiosk's sandbox.`,
            `Visit duration p50: ${ms(early.p50)} (visits ${warmup + 1}–${warmup + span}), ${ms(late.p50)} (visits ${total - span + 1}–${total}): ${ratio(late.p50 / early.p50)}.`,
            `Wedge misreads, rescanned (a > 50 ms stall in dispatching the burst splits it; not counted as visits): ${misreads.length}.`,
            `Camera decoder fetched during the visits (hand-scanner kiosk): ${decoderFetched.length === 0 ? 'no' : decoderFetched.join(', ')}.`,
          ],
        },
      ],
      figures: {
        visits: total,
        seconds,
        readings,
        heapRatio500To20: last.usedJSHeapSize / base.usedJSHeapSize,
        cdpHeapRatio500To20: last.cdpUsedSize / base.cdpUsedSize,
        bytesPerVisit: (last.usedJSHeapSize - base.usedJSHeapSize) / (last.visit - base.visit),
        visitMs: { afterWarmup: early, last: late, span },
        decoderFetched,
        misreads,
      },
    };
  } finally {
    await browser.close();
    await kiosk.host.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// (c) Initial renderer bundle, gzipped

interface BuiltFile {
  file: string;
  bytes: number;
  gzipBytes: number;
}

export async function benchRendererBundle(): Promise<BenchReport> {
  const notBuilt = missingBuild();
  if (notBuilt) throw new Error(notBuilt);
  const rendererDir = buildOutput.rendererDir;
  const html = await fs.readFile(path.join(rendererDir, 'index.html'), 'utf8');

  // What index.html loads up front: module scripts, stylesheets, modulepreloads…
  const initial = new Set<string>();
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const attribute = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
    const isScript = tag.startsWith('<script');
    const rel = attribute('rel');
    const url = isScript ? attribute('src') : rel === 'stylesheet' || rel === 'modulepreload' ? attribute('href') : undefined;
    if (url && !/^(data:|https?:)/.test(url)) initial.add(path.normalize(url.replace(/^\.?\//, '')));
  }
  if (initial.size === 0) throw new Error(`index.html in ${rendererDir} loads no script or stylesheet`);
  // …and every chunk those scripts import statically (a dynamic import("…") is lazy).
  const queue = [...initial].filter((file) => file.endsWith('.js'));
  while (queue.length > 0) {
    const file = queue.pop()!;
    const code = await fs.readFile(path.join(rendererDir, file), 'utf8');
    for (const [, specifier] of code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[^"'();]*?\bfrom\s*)?["'](\.\.?\/[^"']+\.js)["']/g)) {
      const imported = path.normalize(path.join(path.dirname(file), specifier!));
      if (!initial.has(imported)) {
        initial.add(imported);
        queue.push(imported);
      }
    }
  }

  const measure = async (file: string): Promise<BuiltFile> => {
    const content = await fs.readFile(path.join(rendererDir, file));
    return { file, bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
  };
  const allFiles = (await fs.readdir(rendererDir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(rendererDir, path.join(entry.parentPath, entry.name)))
    .filter((file) => file !== 'index.html');
  const initialFiles = await Promise.all([...initial].map(measure));
  const laterFiles = await Promise.all(allFiles.filter((file) => !initial.has(file)).sort().map(measure));
  const htmlFile = await measure('index.html');

  // The decoder: the zxing worker, its WASM, or zxing-wasm's own code anywhere up front.
  const isDecoderFile = (file: string) => /decoder\.worker|zxing|\.wasm$/i.test(file);
  const decoderUpFront: string[] = [];
  for (const { file } of initialFiles) {
    if (isDecoderFile(file)) decoderUpFront.push(`${file} (decoder file)`);
    else if (/zxing/i.test(await fs.readFile(path.join(rendererDir, file), 'utf8'))) decoderUpFront.push(`${file} (contains zxing code)`);
  }
  const bridge = await fs.readFile(buildOutput.browserBridgeScript);
  const bridgeGzip = gzipSync(bridge, { level: 9 }).length;

  const sum = (files: BuiltFile[], key: 'bytes' | 'gzipBytes') => files.reduce((total, file) => total + file[key], 0);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  const initialGzip = sum(initialFiles, 'gzipBytes');
  const fileRow = (kind: string, file: BuiltFile) => [kind, file.file, kb(file.bytes), kb(file.gzipBytes), ratio(file.gzipBytes / initialGzip)];
  const whatLoadsIt = (file: string) =>
    /decoder\.worker/.test(file) ? 'later: camera worker' : /\.wasm$/.test(file) ? 'later: camera WASM' : 'later';
  return {
    tables: [
      {
        title: 'Renderer bundle (dist/renderer), gzip level 9',
        columns: ['loaded', 'file', 'raw', 'gzip', 'gzip ÷ initial gzip'],
        rows: [
          ...initialFiles.map((file) => fileRow('initial', file)),
          ['initial total', `${initialFiles.length} files (+ index.html ${kb(htmlFile.gzipBytes)} gz)`, kb(sum(initialFiles, 'bytes')), kb(initialGzip), ratio(1)],
          ...laterFiles.map((file) => fileRow(whatLoadsIt(file.file), file)),
          ['later total', `${laterFiles.length} files`, kb(sum(laterFiles, 'bytes')), kb(sum(laterFiles, 'gzipBytes')), ratio(sum(laterFiles, 'gzipBytes') / initialGzip)],
        ],
        notes: [
          `Camera decoder in the initial bundle: ${decoderUpFront.length === 0 ? 'no' : `YES: ${decoderUpFront.join(', ')}`}.`,
          'Initial: what index.html loads (scripts, stylesheets, modulepreloads) and the chunks they import statically.',
          `Not counted: the browser host's bridge script it injects into index.html (dist/preload/browser.preload.js, ` +
            `${kb(bridge.length)}, ${kb(bridgeGzip)} gz); Electron loads its preload instead.`,
        ],
      },
    ],
    figures: {
      unit: 'bytes',
      gzipLevel: 9,
      initial: initialFiles,
      initialBytes: sum(initialFiles, 'bytes'),
      initialGzipBytes: initialGzip,
      indexHtml: htmlFile,
      later: laterFiles,
      decoderInInitialBundle: decoderUpFront.length > 0,
      decoderUpFront,
      browserBridgeScript: { bytes: bridge.length, gzipBytes: bridgeGzip },
    },
  };
}
