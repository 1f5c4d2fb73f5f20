import type { Page } from 'playwright-core';

/**
 * Helpers for bench parts that time a kiosk page in Chromium against the bench process: one
 * clock for both sides (epoch ms with sub-ms resolution), and the waits such parts share.
 */

/** Epoch ms, sub-ms resolution; the page side uses the same expression. */
export const epochNow = () => performance.timeOrigin + performance.now();

export interface ClockOffset {
  /** Page clock minus bench clock, in ms (subtract it from page − bench differences). */
  offsetMs: number;
  /** Half the shortest round trip: the offset is known to within this. */
  uncertaintyMs: number;
}

/**
 * How far the page's `timeOrigin + now()` is from this process's: both derive from the system
 * clock at their own start, so they can disagree by a constant. The sample with the shortest
 * round trip is taken, assuming the page read its clock halfway through it.
 */
export async function pageClockOffset(page: Page, samples = 30): Promise<ClockOffset> {
  let best: ClockOffset | undefined;
  for (let index = 0; index < samples; index++) {
    const sent = epochNow();
    const pageTime = await page.evaluate(() => performance.timeOrigin + performance.now());
    const received = epochNow();
    const candidate = { offsetMs: pageTime - (sent + received) / 2, uncertaintyMs: (received - sent) / 2 };
    if (!best || candidate.uncertaintyMs < best.uncertaintyMs) best = candidate;
  }
  return best!;
}

/** Until the kiosk reports its serial scanner open on `path`. */
export async function waitForSerialConnected(page: Page, path: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await page.evaluate(() => window.kiosk.getScannerStatus());
    if (status.ok && status.value.connection === 'serial' && status.value.state === 'connected' && status.value.path === path) return;
    if (Date.now() > deadline) throw new Error(`serial scanner not connected on ${path}: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Until no bridge call of the visit is running (`<main aria-busy>` is false). */
export async function waitUntilNotBusy(page: Page) {
  await page.waitForFunction(() => document.querySelector('main.kiosk')?.getAttribute('aria-busy') === 'false', undefined, {
    polling: 'raf',
  });
}
