import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ConfigStore } from '../../main/config/config-store.node.ts';
import { silentLogger } from '../../main/logging/logger.std.ts';
import { KeytarSecretStore, SECRET_NAMES } from '../../main/secrets/secret-store.node.ts';
import { shopperMessages } from '../../renderer/i18n/messages/shopper.std.ts';
import { startBrowserHostProcess, type BrowserHostProcess } from '../support/browser-host-process.node.ts';
import { launchChromium } from '../support/chromium.node.ts';
import { openKiosk, scannerBurst } from '../support/kiosk-journey.node.ts';
import { longestChain, startLatencyProxy, type LatencyProxy, type LoggedCall } from '../support/latency-proxy.node.ts';
import { pageClockOffset, waitUntilNotBusy } from './kiosk-page.node.ts';
import type { Counts } from './measure.std.ts';
import { spawnSandbox, vouchersToRedeem, type SandboxProcess } from './sandbox-process.node.ts';
import { ms, percentile, ratio, summarize, type BenchReport } from './stats.std.ts';

/**
 * Issue #32: the real UI of a connected kiosk, its platform (a sandbox in its own process) behind
 * a loopback proxy that adds 100 ms to every call, as a store's line would. Each shopper flow is
 * timed from the shopper's action to the target screen painted, and the proxy's own log says how
 * many calls stood in a row in between, against the fewest the API allows.
 */

const COUNTS: Counts = { warmup: 3, iterations: 15 };
/** Each way: 100 ms a call. */
const LEG_MS = 50;
const CALL_MS = 2 * LEG_MS;
/** One frame at 60 Hz: the paint after the last answer. */
const FRAME_MS = 16.7;
const TARGET_RATIO = 1.2;
/** The host's keychain service: the bench's own, removed at the end. */
const KEYCHAIN_SERVICE = `loyalty-kiosk-bench-round-trip-${process.pid}`;
const SANNE = 'sanne.devries@example.nl';
/** The platform's idle probe (ServiceHealth, List Vouchers with limit 0): the kiosk's, never the shopper's. */
const isBackgroundProbe = (call: LoggedCall) => call.method === 'GET' && /\/vouchers\?limit=0$/.test(call.path);

type AnsweredCall = LoggedCall & { answeredAt: number };
type FlowName = 'card' | 'email' | 'typed' | 'voucherHome' | 'voucherAttract' | 'redeem' | 'confirm' | 'join';

/** Each flow, and the fewest calls in a row the API allows for it, with why. */
const FLOWS: Record<FlowName, { label: string; fewest: number; why: string }> = {
  card: { label: 'card scan → home with vouchers', fewest: 2, why: 'identify, then balance and vouchers side by side' },
  email: { label: 'e-mail entered → home with vouchers', fewest: 2, why: 'find the contact by e-mail, then balance and vouchers side by side' },
  typed: { label: 'typed card number → home with vouchers', fewest: 2, why: 'as a scan: identify, then balance and vouchers side by side' },
  voucherHome: { label: 'voucher scan (shopper known) → voucher screen', fewest: 1, why: 'the card and voucher lookups side by side' },
  voucherAttract: { label: 'voucher scan (nobody known) → voucher screen', fewest: 1, why: 'the card and voucher lookups side by side' },
  redeem: { label: 'Redeem tapped → confirm screen', fewest: 1, why: 'the lock' },
  confirm: { label: 'Confirm tapped → redeemed screen', fewest: 1, why: 'the redeem' },
  join: { label: 'Join tapped → the new shopper’s home', fewest: 2, why: 'create the contact, then balance and vouchers (and the card link) side by side' },
};

/** What the page reports for one flow: page-clock epoch ms. */
interface PageTimes {
  /** The shopper's action reached the page: the burst's Enter keydown, or the tap's click (its release: how long a finger rests on the glass is the shopper's time, not the kiosk's). */
  actionAt: number;
  /** A task posted from the first requestAnimationFrame after the target was in the DOM: that frame's rendering is done. */
  paintedAt: number;
  /** The kiosk showed a notice instead (a split burst read as an unknown code). */
  missed: boolean;
}

interface Sample {
  ms: number;
  /** Each step of the longest chain: the calls side by side in it, by operation. */
  steps: string[][];
  /**
   * Where the time went (ms): the action → the first call at the proxy; the chain's calls beyond
   * their 100 ms (the sandbox, loopback, the proxy); one answer → the next call; the last answer → paint.
   */
  split: { leadIn: number; beyondLine: number; between: number; tail: number };
  /** Calls in the window that are not on the path: answered after the paint, or the idle probe. */
  aside: string[];
  /** Calls that began before the action and were still open at it. */
  before: string[];
  /** Every call of the window, ms after the action, for bench-results.json. */
  calls: Array<{ call: string; arrived: number; answered: number | null; onPath: boolean }>;
}

type Target = { selector: string; text?: string };

declare global {
  interface Window {
    benchFlow?: { arm(kind: 'enter' | 'tap', targets: Target[], misses: Target[]): void; wait(): Promise<PageTimes> };
  }
}

/**
 * Installed before the kiosk's own scripts, so its capture listeners run before the wedge
 * listener swallows the Enter. Plain source text: tsx would wrap named functions in a `__name`
 * helper the page lacks.
 */
const FLOW_PROBE = `(() => {
  const now = () => performance.timeOrigin + performance.now();
  const present = (targets) => targets.some(({ selector, text }) => [...document.querySelectorAll(selector)].some((element) => !text || element.textContent.includes(text)));
  let flow = null;
  const onAction = (kind) => (event) => {
    if (flow && flow.kind === kind && flow.actionAt === undefined && (kind !== 'enter' || event.key === 'Enter')) flow.actionAt = now();
  };
  addEventListener('keydown', onAction('enter'), true);
  addEventListener('click', onAction('tap'), true);
  new MutationObserver(() => {
    if (!flow || flow.actionAt === undefined || flow.seen) return;
    const missed = present(flow.misses);
    if (!missed && !present(flow.targets)) return;
    const armed = flow;
    armed.seen = true;
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => armed.done({ actionAt: armed.actionAt, paintedAt: now(), missed });
      channel.port2.postMessage(null);
    });
  }).observe(document, { childList: true, subtree: true, characterData: true });
  window.benchFlow = {
    arm(kind, targets, misses) {
      if (present(targets)) throw new Error('the target is already on screen: ' + JSON.stringify(targets));
      flow = { kind, targets, misses };
      flow.result = new Promise((resolve) => (flow.done = resolve));
    },
    wait() {
      const armed = flow;
      return Promise.race([armed.result, new Promise((_, reject) => setTimeout(() => reject(new Error('target not painted within 15 s')), 15000))]);
    },
  };
})()`;

const HOME_WITH_VOUCHERS: Target[] = [{ selector: '[data-testid=home-screen] [data-testid=voucher-list]' }];
const screen = (testid: string): Target[] => [{ selector: `[data-testid=${testid}]` }];
const MISREAD: Target[] = screen('notice-screen');

class Misread extends Error {}

export async function benchRoundTrip(counts = COUNTS): Promise<BenchReport> {
  const secrets = new KeytarSecretStore({ logger: silentLogger, service: KEYCHAIN_SERVICE });
  const status = await secrets.status();
  if (status.keychain !== 'available') throw new Error(`no keychain: ${status.reason} (run under test/with-keyring.sh)`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-bench-round-trip-'));
  let sandbox: SandboxProcess | undefined;
  let proxy: LatencyProxy | undefined;
  let host: BrowserHostProcess | undefined;
  let browser: Browser | undefined;
  try {
    [sandbox, browser] = await Promise.all([spawnSandbox(), launchChromium()]);
    proxy = await startLatencyProxy(sandbox.baseUrl, { legMs: LEG_MS });
    const { api_key, access_token, personal_access_token } = sandbox.manifest.credentials;
    await secrets.set('apiKey', api_key);
    await secrets.set('accessToken', access_token);
    await secrets.set('personalAccessToken', personal_access_token);
    host = await startConnectedKiosk(dataDir, proxy.baseUrl, sandbox);
    const vouchers = await vouchersToRedeem(sandbox, counts);
    const card = sanneCard(sandbox);
    const page = await openKiosk(browser, { host, manifest: sandbox.manifest, platform: sandbox.client, dataDir }, 'portrait', {
      beforeLoad: (opened) => opened.addInitScript(FLOW_PROBE),
    });
    await waitUntilNotBusy(page);

    const offsetBefore = await pageClockOffset(page);
    const run = new FlowRun(page, proxy, offsetBefore.offsetMs, new URL(proxy.baseUrl).pathname);
    const samples = await run.iterations(counts, (index) => ({ code: vouchers[index]!.data.code, card }));
    const offsetAfter = await pageClockOffset(page);
    await page.close();
    return report(samples, run.misreads, counts, browser.version(), { before: offsetBefore, after: offsetAfter });
  } finally {
    await browser?.close();
    await host?.stop();
    await proxy?.close();
    await sandbox?.close();
    for (const name of SECRET_NAMES) await secrets.remove(name);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function sanneCard({ manifest }: SandboxProcess): string {
  // vouchersToRedeem makes the first contact's vouchers: she must be the one who scans her card.
  const first = manifest.contacts[0]!;
  if (first.email !== SANNE) throw new Error(`the sandbox's first contact is ${first.email}, not ${SANNE}`);
  return first.identifiers[0]!;
}

/** A connected kiosk: the platform is the proxy, the credentials in the bench's keychain service. */
async function startConnectedKiosk(dataDir: string, baseUrl: string, sandbox: SandboxProcess): Promise<BrowserHostProcess> {
  const config = new ConfigStore({ dataDir, logger: silentLogger });
  config.set('api.baseUrl', baseUrl);
  config.set('api.shopUuid', sandbox.manifest.shops[0]!.uuid);
  config.set('session.scanner_type', 'hand_scanner');
  config.set('session.enable_email_identification', true);
  config.set('session.enable_registration', true);
  config.set('session.enable_on_screen_keyboard', true);
  return startBrowserHostProcess({ dataDir, env: { KIOSK_KEYCHAIN_SERVICE: KEYCHAIN_SERVICE } });
}

/** Drives the flows of each iteration and reads each one's calls from the proxy's log. */
class FlowRun {
  readonly misreads: string[] = [];
  #joined = 0;

  constructor(
    private readonly page: Page,
    private readonly proxy: LatencyProxy,
    /** Page clock minus bench clock (ms). */
    private readonly offsetMs: number,
    /** The platform's base path, left off the operations' names. */
    private readonly basePath: string,
  ) {}

  async iterations(counts: Counts, inputs: (index: number) => { code: string; card: string }) {
    const kept: Array<Record<FlowName, Sample>> = [];
    for (let index = 0; index < counts.warmup + counts.iterations; index++) {
      const samples = await this.#withRetries(index, () => this.#iteration(inputs(index)));
      if (index >= counts.warmup) kept.push(samples);
    }
    return kept;
  }

  /** A split burst reads as an unknown code: the shopper starts over and scans again (at most three times). */
  async #withRetries<T>(index: number, attempt: () => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries++) {
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof Misread) || tries === 3) throw error;
        this.misreads.push(`iteration ${index + 1}: ${error.message}`);
        await this.#tapIn('notice-screen', shopperMessages.en['common.start_over']);
        await this.#attract();
      }
    }
  }

  async #iteration({ code, card }: { code: string; card: string }): Promise<Record<FlowName, Sample>> {
    const { page } = this;
    const samples = {} as Record<FlowName, Sample>;
    samples.voucherAttract = await this.#flow('enter', screen('voucher-screen'), () => scannerBurst(page, code));
    await this.#tapIn('voucher-screen', shopperMessages.en['common.back']);
    await this.#attract();

    samples.card = await this.#flow('enter', HOME_WITH_VOUCHERS, () => scannerBurst(page, card));
    samples.voucherHome = await this.#flow('enter', screen('voucher-screen'), () => scannerBurst(page, code));
    samples.redeem = await this.#flow('tap', screen('confirm-screen'), () => page.getByTestId('redeem').tap());
    samples.confirm = await this.#flow('tap', screen('redeemed-screen'), () => page.getByTestId('confirm').tap());
    await page.getByTestId('done').tap();
    await this.#attract();

    await page.getByRole('button', { name: shopperMessages.en['attract.forgot_card'], exact: true }).tap();
    await page.getByRole('textbox', { name: shopperMessages.en['email.label'] }).fill(SANNE);
    samples.email = await this.#flow('tap', HOME_WITH_VOUCHERS, () => this.#tapIn('email-screen', shopperMessages.en['email.submit']));
    await this.#endVisit();

    await page.getByTestId('type-code').tap();
    await page.getByRole('textbox', { name: shopperMessages.en['type_code.label'] }).fill(card);
    samples.typed = await this.#flow('tap', HOME_WITH_VOUCHERS, () => this.#tapIn('type-code-screen', shopperMessages.en['type_code.submit']));
    await this.#endVisit();

    await page.getByRole('button', { name: shopperMessages.en['attract.join'], exact: true }).tap();
    await page.getByRole('textbox', { name: shopperMessages.en['email.label'] }).fill(`bench.${process.pid}.${++this.#joined}@example.nl`);
    await page.getByText(shopperMessages.en['register.consent']).tap();
    // A new member has no vouchers yet, unless the platform gives a welcome one.
    const joinedHome = [...HOME_WITH_VOUCHERS, { selector: '[data-testid=home-screen] p', text: shopperMessages.en['home.no_vouchers'] }];
    samples.join = await this.#flow('tap', joinedHome, () => this.#tapIn('register-screen', shopperMessages.en['register.submit']));
    await this.#endVisit();
    return samples;
  }

  /** One timed flow: armed in the page, the action, the paint, then the proxy's calls of its window. */
  async #flow(kind: 'enter' | 'tap', targets: Target[], act: () => Promise<unknown>): Promise<Sample> {
    const { page } = this;
    // A shopper reads the screen before acting: what the last screen set off on the line has landed.
    await this.proxy.quiet();
    await page.evaluate(([kind, targets, misses]) => window.benchFlow!.arm(kind, targets, misses), [kind, targets, MISREAD] as const);
    await act();
    const times = await page.evaluate(() => window.benchFlow!.wait());
    if (times.missed) throw new Misread(await page.getByTestId('notice-screen').getByRole('heading', { level: 1 }).innerText());
    // What follows the paint (a voucher check, the home's refresh) finishes before the next action.
    await waitUntilNotBusy(page);
    return this.#callsOf(times);
  }

  /** The flow's window on the proxy's clock: from the action to the paint. */
  #callsOf({ actionAt, paintedAt }: PageTimes): Sample {
    const from = actionAt - this.offsetMs;
    const to = paintedAt - this.offsetMs;
    const name = (call: LoggedCall) => operation(call, this.basePath);
    const inWindow = this.proxy.arrivedBetween(from, to);
    const onPath = (call: LoggedCall): call is AnsweredCall => call.answeredAt !== null && call.answeredAt <= to && !isBackgroundProbe(call);
    const path = inWindow.filter(onPath);
    const chain = longestChain(path);
    const beside = (step: AnsweredCall) => path.filter((call) => call.arrivedAt < step.answeredAt && call.answeredAt > step.arrivedAt);
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    return {
      ms: paintedAt - actionAt,
      steps: chain.map((step) => [...new Set(beside(step).map(name))].sort()),
      split: {
        leadIn: chain.length > 0 ? chain[0]!.arrivedAt - from : 0,
        beyondLine: sum(chain.map((call) => call.answeredAt - call.arrivedAt - CALL_MS)),
        between: sum(chain.slice(1).map((call, index) => call.arrivedAt - chain[index]!.answeredAt)),
        tail: chain.length > 0 ? to - chain.at(-1)!.answeredAt : 0,
      },
      aside: inWindow.filter((call) => !onPath(call)).map(name),
      before: this.proxy.log.filter((call) => call.arrivedAt < from && (call.answeredAt === null || call.answeredAt > from)).map(name),
      calls: inWindow.map((call) => ({
        call: name(call),
        arrived: call.arrivedAt - from,
        answered: call.answeredAt === null ? null : call.answeredAt - from,
        onPath: onPath(call),
      })),
    };
  }

  async #tapIn(testid: string, name: string) {
    await this.page.getByTestId(testid).getByRole('button', { name, exact: true }).tap();
  }

  async #endVisit() {
    await this.#tapIn('home-screen', shopperMessages.en['home.done']);
    await this.#attract();
  }

  async #attract() {
    await this.page.getByTestId('attract-screen').waitFor();
    await waitUntilNotBusy(this.page);
  }
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** `POST /vouchers/{uuid}/lock`: the operation, without the platform's base path, the query or ids. */
function operation({ method, path: called }: LoggedCall, basePath: string): string {
  const pathname = new URL(called, 'http://proxy').pathname;
  return `${method} ${(pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname).replace(UUID, '{uuid}')}`;
}

/** The most frequent value (the smaller one on a tie). */
function mode(values: number[]): number {
  const counted = new Map<number, number>();
  for (const value of values) counted.set(value, (counted.get(value) ?? 0) + 1);
  return [...counted].sort(([a, countA], [b, countB]) => countB - countA || a - b)[0]![0];
}

function report(
  kept: Array<Record<FlowName, Sample>>,
  misreads: string[],
  counts: Counts,
  chromium: string,
  offsets: Record<'before' | 'after', { offsetMs: number; uncertaintyMs: number }>,
): BenchReport {
  const flows = (Object.keys(FLOWS) as FlowName[]).map((name) => {
    const samples = kept.map((iteration) => iteration[name]);
    const inARow = samples.map((sample) => sample.steps.length);
    const usual = mode(inARow);
    const { fewest } = FLOWS[name];
    const floorMs = fewest * CALL_MS + FRAME_MS;
    const summary = summarize(samples.map((sample) => sample.ms));
    const p50Of = (part: keyof Sample['split']) => percentile(samples.map((sample) => sample.split[part]), 50);
    return {
      name,
      ...FLOWS[name],
      summary,
      inARow: { usual, min: Math.min(...inARow), max: Math.max(...inARow) },
      steps: samples.find((sample) => sample.steps.length === usual)!.steps,
      split: { leadIn: p50Of('leadIn'), beyondLine: p50Of('beyondLine'), between: p50Of('between'), tail: p50Of('tail') },
      aside: [...new Set(samples.flatMap((sample) => sample.aside))],
      before: [...new Set(samples.flatMap((sample) => sample.before))],
      floorMs,
      ratio: summary.p50 / floorMs,
      samples,
    };
  });
  const verdict = (value: number) => (value <= TARGET_RATIO ? 'met' : 'NOT met');
  const list = (names: string[]) => names.join(', ') || '—';
  return {
    tables: [
      {
        title:
          `Shopper flows through a ${CALL_MS} ms loopback line (${LEG_MS} ms each way): action → target painted, ` +
          `${counts.iterations} each after ${counts.warmup} warm-up (Chromium ${chromium}, connected kiosk, sandbox in its own process)`,
        columns: ['flow', 'n', 'p50', 'p95', 'calls in a row (min–max)', 'fewest', 'floor', 'p50 ÷ floor', `≤ ${TARGET_RATIO}x`],
        rows: flows.map((flow) => [
          flow.label,
          String(flow.summary.n),
          ms(flow.summary.p50),
          ms(flow.summary.p95),
          `${flow.inARow.usual} (${flow.inARow.min}–${flow.inARow.max})`,
          String(flow.fewest),
          ms(flow.floorMs),
          ratio(flow.ratio),
          verdict(flow.ratio),
        ]),
        notes: [
          `floor = fewest × ${CALL_MS} ms + ${FRAME_MS} ms (one frame); the verdict is p50 ÷ floor against ${TARGET_RATIO}x (reported, never failed).`,
          'Times in the page: from the Enter keydown (scans) or the click (taps: the finger lifted) to a task posted from the first frame after the target is in the DOM.',
          'Each action waits until the line is quiet and the kiosk not busy, as after a shopper has read the screen.',
          'Calls in a row: the proxy’s log, the calls that arrived after the action and were answered before the paint; the longest chain of calls each arriving after the last one’s answer.',
          ...flows.map((flow) => `${flow.label}: fewest ${flow.fewest}: ${flow.why}.`),
          `Page clock − bench clock: ${ms(offsets.before.offsetMs)} (±${ms(offsets.before.uncertaintyMs)}) before, ${ms(offsets.after.offsetMs)} (±${ms(offsets.after.uncertaintyMs)}) after; the first is used.`,
          `Misread bursts (retried): ${misreads.length === 0 ? 'none' : misreads.join('; ')}.`,
        ],
      },
      {
        title: 'Where the time goes (p50 of each part; they add up to about the p50 above)',
        columns: ['flow', 'action → 1st call', 'the line', 'platform beyond the line', 'answer → next call', 'last answer → painted'],
        rows: flows.map((flow) => [
          flow.label,
          ms(flow.split.leadIn),
          ms(flow.inARow.usual * CALL_MS),
          ms(flow.split.beyondLine),
          ms(flow.split.between),
          ms(flow.split.tail),
        ]),
        notes: [
          'action → 1st call and answer → next call are the kiosk’s own time (renderer, bridge, main); platform beyond the line is the sandbox, loopback and the proxy beyond its 100 ms a call.',
        ],
      },
      {
        title: 'Which calls: the steps of one sample with the usual count (calls side by side joined by +), and the calls off the path',
        columns: ['flow', 'calls in a row', 'in the window, not on the path', 'began before the action, still open'],
        rows: flows.map((flow) => [flow.label, flow.steps.map((step) => step.join(' + ')).join(' → ') || '—', list(flow.aside), list(flow.before)]),
        notes: ['Not on the path: arrived within the flow’s window but answered after the paint, or the platform’s idle probe (GET /vouchers?limit=0).'],
      },
    ],
    figures: {
      ...counts,
      unit: 'ms',
      chromium,
      callMs: CALL_MS,
      frameMs: FRAME_MS,
      targetRatio: TARGET_RATIO,
      flows: Object.fromEntries(flows.map(({ name, ...flow }) => [name, flow])),
      misreads,
      clockOffset: offsets,
    },
  };
}
