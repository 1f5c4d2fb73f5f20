import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../support/chromium.node.ts';
import { openKiosk, startKiosk } from '../support/kiosk-journey.node.ts';
import { until } from '../support/until.std.ts';
import { epochNow } from './kiosk-page.node.ts';
import { ms, percentile, type BenchReport } from './stats.std.ts';

/** The target for the real espeak-ng: a key's speech starts within this, at p95. */
const TARGET_P95_MS = 150;

/** Where a program is on PATH (the real espeak-ng, before the bench puts its own first). */
function onPath(name: string): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new Error(`${name} is not installed (apt-get install ${name})`);
}

/**
 * An `espeak-ng` for the kiosk's PATH that writes down (epoch ns) when speech starts: the stand-in
 * the moment it runs, the real one when its first audio byte comes out (`--stdout`: this machine
 * has no sound card; on a kiosk the same byte goes to it).
 */
function timedEspeak(kind: 'stand-in' | 'real') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-espeak-${kind}-`));
  const record = path.join(dir, 'started.txt');
  const body =
    kind === 'stand-in'
      ? `date +%s%N >> '${record}'\ncat > /dev/null`
      : `'${onPath('espeak-ng')}' "$@" --stdout | { head -c 1 > /dev/null; date +%s%N >> '${record}'; cat > /dev/null; }`;
  fs.writeFileSync(path.join(dir, 'espeak-ng'), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  fs.writeFileSync(record, '');
  const starts = () => fs.readFileSync(record, 'utf8').split('\n').filter(Boolean).map((line) => Number(line) / 1e6);
  return { path: `${dir}${path.delimiter}${process.env.PATH ?? ''}`, starts };
}

/** Speech's start, looked for every 2 ms: the delay measured is no coarser than that. */
const speechStarted = (condition: () => boolean) => until(condition, { timeoutMs: 5_000, pollMs: 2, failure: 'speech did not start in time' });

/** Key press (the bench's clock, just before the key is sent) to the start of the speech it causes. */
async function keyToSpeech(page: Page, espeak: ReturnType<typeof timedEspeak>, presses: number): Promise<number[]> {
  await page.keyboard.press('Tab');
  await speechStarted(() => espeak.starts().length > 0);
  const delays: number[] = [];
  for (let press = 0; press < presses; press++) {
    const before = espeak.starts().length;
    const pressedAt = epochNow();
    await page.keyboard.press('ArrowDown');
    await speechStarted(() => espeak.starts().length > before);
    delays.push(espeak.starts()[before]! - pressedAt);
  }
  return delays;
}

/**
 * Key press to start of speech (#21): a key moves the focus on the attract screen, the page asks
 * main to say the control over the bridge, main starts espeak-ng. With the stand-in it is the
 * kiosk's own path; with the real espeak-ng, its start-up and first audio as well.
 */
export async function benchKeyToSpeech(presses = 60): Promise<BenchReport> {
  const browser = await launchChromium();
  const figures: Record<string, unknown> = {};
  const rows: string[][] = [];
  try {
    for (const kind of ['stand-in', 'real'] as const) {
      const espeak = timedEspeak(kind);
      const kiosk = await startKiosk({ 'session.scanner_type': 'hand_scanner' }, undefined, { PATH: espeak.path });
      try {
        const page = await openKiosk(browser, kiosk, 'landscape');
        const delays = await keyToSpeech(page, espeak, presses);
        const [p50, p95] = [percentile(delays, 50), percentile(delays, 95)];
        figures[kind] = { n: delays.length, p50, p95, max: percentile(delays, 100) };
        rows.push([kind, String(delays.length), ms(p50), ms(p95), ms(percentile(delays, 100))]);
        await page.close();
      } finally {
        await kiosk.host.stop();
      }
    }
  } finally {
    await browser.close();
  }
  const real = figures.real as { p95: number };
  const standIn = figures['stand-in'] as { p95: number };
  return {
    figures: { ...figures, targetP95Ms: TARGET_P95_MS, realOverStandInP95: real.p95 / standIn.p95 },
    tables: [
      {
        title: 'Key press to start of speech',
        columns: ['espeak-ng', 'n', 'p50', 'p95', 'max'],
        rows,
        notes: [`target: real p95 ≤ ${TARGET_P95_MS} ms (${real.p95 <= TARGET_P95_MS ? 'met' : 'missed'}); real ÷ stand-in at p95: ${(real.p95 / standIn.p95).toFixed(2)}x`],
      },
    ],
  };
}
