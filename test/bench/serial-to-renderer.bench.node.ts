import type { Page } from 'playwright-core';
import { silentLogger } from '../../main/logging/logger.std.ts';
import { SerialScanner } from '../../main/scanner/serial-scanner.node.ts';
import { launchChromium } from '../support/chromium.node.ts';
import { openKiosk, startKiosk } from '../support/kiosk-journey.node.ts';
import { openPtyPair } from '../support/pty.node.ts';
import { epochNow, pageClockOffset, waitForSerialConnected, waitUntilNotBusy } from './kiosk-page.node.ts';
import { DEFAULT_COUNTS, sample } from './measure.std.ts';
import { ms, percentile, ratio, summarize, type BenchReport } from './stats.std.ts';

declare global {
  interface Window {
    /** Installed by this bench: when the page received the scan of `value` (page epoch ms). */
    benchScanArrival?: (value: string) => Promise<number>;
  }
}

/**
 * A serial hand scanner through the whole kiosk: a line written to one end of a socat pty pair
 * → the kiosk host's SerialScanner → bridge → `window.kiosk.on('scan')` in the page (Chromium,
 * browser host, demo kiosk). Beside it, interleaved, the same SerialScanner code in the bench
 * process on a second pty pair: the pty and serial part alone, so the rest is host → page.
 *
 * Distinct values (`BENCH-<n>`) get past the scanner's 500 ms duplicate filter; the kiosk looks
 * each one up (unknown code: a notice), and the next line is written only once that is done.
 */
export async function benchSerialToRenderer(counts = DEFAULT_COUNTS): Promise<BenchReport> {
  const [kioskPty, probePty] = await Promise.all([openPtyPair(), openPtyPair()]);
  const kiosk = await startKiosk({
    'session.scanner_type': 'hand_scanner',
    'scanner.connection': 'serial',
    'scanner.serial.path': kioskPty.scannerPath,
  });
  const browser = await launchChromium();
  const probe = new SerialScanner({ path: probePty.scannerPath, terminator: 'CR' }, { logger: silentLogger });
  try {
    const page = await openKiosk(browser, kiosk);
    await waitForSerialConnected(page, kioskPty.scannerPath);
    await installScanRecorder(page);

    // The probe: the very same serial code, read in this process.
    const probeArrivals = new Map<string, (at: number) => void>();
    probe.onScan((scan) => {
      const at = epochNow();
      probeArrivals.get(scan.value)?.(at);
    });
    probe.start();
    await waitFor(() => probe.status().state === 'connected', 'the probe scanner to connect');

    const throughKiosk = async (value: string) => {
      const writtenAt = epochNow();
      await kioskPty.write(`${value}\r`);
      const receivedAt = await page.evaluate((scanned) => window.benchScanArrival!(scanned), value);
      // Its lookup runs after the event; the next line waits until it is done.
      await waitUntilNotBusy(page);
      return receivedAt - writtenAt;
    };
    const throughProbe = async (value: string) => {
      const arrived = new Promise<number>((resolve) => probeArrivals.set(value, resolve));
      const writtenAt = epochNow();
      await probePty.write(`${value}\r`);
      const latency = (await withTimeout(arrived, 5000, `probe scan ${value}`)) - writtenAt;
      probeArrivals.delete(value);
      return latency;
    };

    const offsetBefore = await pageClockOffset(page);
    const pairs = await sample(counts, async (index) => {
      const value = `BENCH-${index}`;
      // Alternate which goes first, so drift and warm caches favour neither.
      if (index % 2 === 0) {
        const kioskMs = await throughKiosk(value);
        return { kiosk: kioskMs, probe: await throughProbe(value) };
      }
      const probeMs = await throughProbe(value);
      return { kiosk: await throughKiosk(value), probe: probeMs };
    });
    const offsetAfter = await pageClockOffset(page);
    await page.close();

    const offset = (offsetBefore.offsetMs + offsetAfter.offsetMs) / 2;
    const raw = summarize(pairs.map((pair) => pair.kiosk));
    const corrected = summarize(pairs.map((pair) => pair.kiosk - offset));
    const probeOnly = summarize(pairs.map((pair) => pair.probe));
    const hostToPage = summarize(pairs.map((pair) => pair.kiosk - offset - pair.probe));
    const row = (name: string, summary: typeof raw, reference: number | null) => [
      name,
      String(summary.n),
      ms(summary.p50),
      ms(summary.p99),
      ms(summary.max),
      reference === null ? '' : ratio(summary.p50 / reference),
    ];
    return {
      tables: [
        {
          title:
            `Serial line written to the pty → scan event in the renderer: ${counts.iterations} scans after ` +
            `${counts.warmup} warm-up (Chromium ${browser.version()}, browser host, demo kiosk)`,
          columns: ['path', 'n', 'p50', 'p99', 'max', 'p50 ÷ pty-only p50'],
          rows: [
            row('pty → kiosk host → bridge → page on(scan), as measured', raw, probeOnly.p50),
            row('  same, clock offset removed', corrected, probeOnly.p50),
            row('pty → SerialScanner in the bench process (pty-only)', probeOnly, probeOnly.p50),
            row('paired difference: host → page part', hostToPage, null),
          ],
          notes: [
            'Write time: bench performance.timeOrigin + now() just before write(2); receive time: the same in the page.',
            `Page clock − bench clock: ${ms(offsetBefore.offsetMs)} (±${ms(offsetBefore.uncertaintyMs)}) before, ` +
              `${ms(offsetAfter.offsetMs)} (±${ms(offsetAfter.uncertaintyMs)}) after; the "offset removed" rows subtract the mean.`,
            'Each scan waits for the previous one and for the kiosk lookup it causes (unknown code → notice screen).',
            `Kiosk vs pty-only run alternately on two socat pairs; p99 ÷ p50 (as measured): ${ratio(raw.p99 / raw.p50)}.`,
          ],
        },
      ],
      figures: {
        ...counts,
        unit: 'ms',
        chromium: browser.version(),
        scanToRenderer: { ...raw, p95: percentile(pairs.map((pair) => pair.kiosk), 95) },
        scanToRendererOffsetRemoved: corrected,
        ptyOnly: probeOnly,
        hostToPagePaired: hostToPage,
        clockOffset: { before: offsetBefore, after: offsetAfter },
        ratios: { rendererP50ToPtyOnlyP50: raw.p50 / probeOnly.p50, rendererP99ToP50: raw.p99 / raw.p50 },
      },
    };
  } finally {
    await probe.stop();
    await browser.close();
    // The port closes with the kiosk first: a pty pulled from under a pending read can hang the binding.
    await kiosk.host.stop();
    await Promise.all([kioskPty.close(), probePty.close()]);
  }
}

/** Records when each scan event reaches the page; `benchScanArrival(value)` waits for one. */
async function installScanRecorder(page: Page) {
  await page.evaluate(() => {
    const arrivals = new Map<string, number>();
    const waiters = new Map<string, (at: number) => void>();
    window.kiosk.on('scan', (scan) => {
      const at = performance.timeOrigin + performance.now();
      arrivals.set(scan.value, at);
      waiters.get(scan.value)?.(at);
    });
    window.benchScanArrival = (value) =>
      new Promise<number>((resolve, reject) => {
        const known = arrivals.get(value);
        if (known !== undefined) return resolve(known);
        waiters.set(value, resolve);
        setTimeout(() => reject(new Error(`no scan event for ${value} within 5 s`)), 5000);
      });
  });
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
