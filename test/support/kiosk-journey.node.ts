import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { ConfigStore } from '../../main/config/config-store.node.ts';
import { silentLogger } from '../../main/logging/logger.std.ts';
import { createLoyaltyClient, type LoyaltyClient } from '../../main/loyalty/client.node.ts';
import { credentialsByScheme } from '../../main/loyalty/request.std.ts';
import { startBrowserHostProcess, type BrowserHostProcess } from './browser-host-process.node.ts';
import { builtCli } from './built-cli.node.ts';
import { until } from './until.std.ts';
import { KIOSK_VIEWPORTS, launchChromium } from './chromium.node.ts';
import { shopperMessages as messages } from '../../renderer/i18n/messages/shopper.std.ts';
import { layouts, type LayoutName } from '../../renderer/keyboard/layouts.std.ts';

export interface SandboxManifest {
  base_url: string;
  credentials: { api_key: string; access_token: string; personal_access_token: string };
  shops: Array<{ uuid: string; name: string }>;
  promotions: Array<{ uuid: string; name: string }>;
  contacts: Array<{ uuid: string; email: string; identifiers: string[] }>;
  vouchers: Array<{ uuid: string; code: string; status: string; contact_uuid: string | null }>;
  unlinked_identifiers: string[];
  inactive_identifiers?: string[];
}

export interface KioskUnderTest {
  host: BrowserHostProcess;
  manifest: SandboxManifest;
  /** The test's own client of the kiosk's sandbox: outcomes are checked there, not only on screen. */
  platform: LoyaltyClient;
  dataDir: string;
}

/** A demo kiosk in its own data folder, with `settings` written before it starts (as kioskctl would). */
export async function startKiosk(
  settings: Record<string, unknown> = {},
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-journey-')),
  env: NodeJS.ProcessEnv = {},
): Promise<KioskUnderTest> {
  const store = new ConfigStore({ dataDir, logger: silentLogger });
  for (const [key, value] of Object.entries(settings)) store.set(key, value);
  const host = await startBrowserHostProcess({ dataDir, env });
  const manifest = JSON.parse(fs.readFileSync(host.sandbox!.manifestPath, 'utf8')) as SandboxManifest;
  return { host, manifest, platform: platformClientFor(manifest), dataDir };
}

/**
 * One demo kiosk (with `settings`, and `env` for its process) and one Chromium (with `chromiumArgs`) for a describe block: started before its
 * tests, stopped after them. Read `kiosk` and `browser` inside the tests, once they are running.
 */
export function kioskSuite(
  settings: Record<string, unknown> = {},
  env: NodeJS.ProcessEnv = {},
  chromiumArgs: string[] = [],
): { readonly kiosk: KioskUnderTest; readonly browser: Browser } {
  let kiosk: KioskUnderTest | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [kiosk, browser] = await Promise.all([startKiosk(settings, undefined, env), launchChromium({ args: chromiumArgs })]);
  });
  afterAll(async () => {
    await browser?.close();
    await kiosk?.host.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('kioskSuite: read kiosk and browser inside a test, not while the suite is declared');
    return value;
  };
  return {
    get kiosk() {
      return started(kiosk);
    },
    get browser() {
      return started(browser);
    },
  };
}

export interface KioskPageOptions {
  /** The page's Date and timers run on `page.clock` from its first script: the test moves time on instead of waiting. */
  fakeClock?: boolean;
  /** Runs on the new page before the kiosk loads (a route to set up, say). */
  beforeLoad?: (page: Page) => Promise<unknown>;
  /** The test id of the first screen the kiosk shows (default the attract screen). */
  firstScreen?: string;
}

async function newKioskPage(browser: Browser, viewport: keyof typeof KIOSK_VIEWPORTS, { fakeClock = false, beforeLoad }: KioskPageOptions): Promise<Page> {
  const page = await browser.newPage({ viewport: KIOSK_VIEWPORTS[viewport], hasTouch: true });
  if (fakeClock) await page.clock.install();
  await beforeLoad?.(page);
  await throttleCpu(page);
  return page;
}

/**
 * `KIOSK_TEST_CPU_THROTTLE=N` runs every kiosk page N times slower (Chromium's own CPU throttling):
 * a busy kiosk on demand, to find the races a quiet machine hides.
 */
async function throttleCpu(page: Page): Promise<void> {
  const rate = Number(process.env.KIOSK_TEST_CPU_THROTTLE ?? 1);
  if (!(rate > 1)) return;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
}

async function loadKiosk(page: Page, kiosk: KioskUnderTest, firstScreen = 'attract-screen'): Promise<void> {
  await page.goto(kiosk.host.url);
  await page.getByTestId(firstScreen).waitFor();
  // Lifted two frames after the first screen: until then a tap would land on the cover.
  await page.locator('#boot-cover').waitFor({ state: 'detached' });
}

/**
 * From here the page's clock (installed with `fakeClock`) moves only when the test moves it: an
 * idle time or a countdown then ends exactly where the test says, however busy the machine is.
 */
export async function stopPageClock(page: Page): Promise<void> {
  // A second ahead of the page's own time: the clock may only be moved forward.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
}

export async function openKiosk(
  browser: Browser,
  kiosk: KioskUnderTest,
  viewport: keyof typeof KIOSK_VIEWPORTS = 'portrait',
  options: KioskPageOptions = {},
): Promise<Page> {
  const page = await newKioskPage(browser, viewport, options);
  await loadKiosk(page, kiosk, options.firstScreen);
  return page;
}

/**
 * A keyboard-wedge scanner: a burst of keys 4 ms apart, ended by Enter. Stamped like a real scanner's
 * keys (scannerBurst): `keyboard.type` waits for each key's round trip, which on a loaded machine
 * spaces keys like a person's.
 */
export const wedgeScan = (page: Page, value: string) => scannerBurst(page, value);

export function cardOf(manifest: SandboxManifest, email: string): { uuid: string; card: string } {
  const contact = manifest.contacts.find((candidate) => candidate.email === email);
  if (!contact) throw new Error(`no demo contact ${email}`);
  return { uuid: contact.uuid, card: contact.identifiers[0]! };
}

/** Screenshots go to test-results/screens; look at them. */
export async function screenshot(page: Page, name: string) {
  const dir = path.join('test-results', 'screens');
  fs.mkdirSync(dir, { recursive: true });
  const { width, height } = page.viewportSize()!;
  await page.screenshot({ path: path.join(dir, `${name}-${width > height ? 'landscape' : 'portrait'}.png`) });
}

/** A test's own client of a sandbox, with the credentials from its manifest. */
export function platformClientFor(manifest: SandboxManifest): LoyaltyClient {
  const credentials = credentialsByScheme(manifest.credentials);
  return createLoyaltyClient({ baseUrl: manifest.base_url, credentials: async () => credentials });
}

/** The real kioskctl in its own process, as an admin or a fleet script runs it on a kiosk. */
export async function kioskctl(dataDir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [builtCli('kioskctl'), '--data', dataDir, ...args],
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The kiosk's log (`<dataDir>/logs/kiosk.log`), one parsed JSON line per entry, oldest first. */
export function kioskLog(dataDir: string): Array<{ message: string } & Record<string, unknown>> {
  const file = path.join(dataDir, 'logs', 'kiosk.log');
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { message: string } & Record<string, unknown>);
}

/** The kiosk's log lines logged as `event`, in order: tests match the event, never the wording. */
export function kioskEvents(dataDir: string, event: string) {
  return kioskLog(dataDir).filter((line) => line.event === event);
}

/**
 * The uuid of the portal session the kiosk logged after the first `since` it had: a visit's session
 * is made beside its home (#32), so it may come just after the home screen shows. Waits for it.
 */
export async function visitSessionLogged(dataDir: string, since: number): Promise<string> {
  const created = () => kioskEvents(dataDir, 'portal.session_created');
  await until(() => created().length > since, { failure: 'no portal session was logged for the visit' });
  return created()[since]!.portalSession as string;
}

const AXE_SCRIPT = path.join(import.meta.dirname, '..', '..', 'node_modules', 'axe-core', 'axe.min.js');

interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/**
 * axe-core on what the page shows now, once the visit is not busy: fails on any violation of
 * impact serious or critical, naming the rule and the elements. Call it on every screen a journey shows.
 */
export async function expectAccessible(page: Page, screen = ''): Promise<void> {
  await page.locator('main.kiosk:not([aria-busy="true"])').waitFor();
  const violations = await runAxe(page);
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
  if (serious.length > 0) throw new Error(`axe on ${screen || page.url()}:\n${serious.join('\n')}`);
}

/**
 * axe in a world of its own beside the page's: the page's DOM, but real timers (axe waits on
 * them, and a test may hold the page's clock still) and none of the kiosk's globals touched.
 * DevTools evaluation is outside the kiosk's CSP (script-src 'self'), which rightly refuses an inline <script>.
 */
async function runAxe(page: Page): Promise<AxeFinding[]> {
  return inWorldOfItsOwn(page, 'axe', async (evaluate) => {
    await evaluate(fs.readFileSync(AXE_SCRIPT, 'utf8'));
    // The portal's frame holds the platform's hosted page, not the kiosk's; axe checks the frame element itself.
    return (await evaluate(`axe.run(document, { iframes: false }).then(({ violations }) =>
      violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map(({ target }) => ({ target })) })))`)) as AxeFinding[];
  });
}

/**
 * Runs `use` with an `evaluate` into a JavaScript world of its own beside the page's (DevTools'
 * isolated world): the page's DOM, but its own globals and timers, untouched by the page's fake
 * clock, and outside the page's CSP. `evaluate` awaits a promise, returns the value and throws
 * what the script threw.
 */
export async function inWorldOfItsOwn<T>(page: Page, worldName: string, use: (evaluate: (expression: string) => Promise<unknown>) => Promise<T>): Promise<T> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { frameTree } = await cdp.send('Page.getFrameTree');
    const { executionContextId: contextId } = await cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName });
    return await use(async (expression) => {
      const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', { contextId, expression, awaitPromise: true, returnByValue: true });
      if (exceptionDetails) throw new Error(`${worldName} failed: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
      return result.value;
    });
  } finally {
    await cdp.detach();
  }
}

/** The least a shopper's finger must hit, both ways (WCAG 2.5.5 asks 44 px). */
const TOUCH_TARGET_PX = 48;

/**
 * Every control the page shows now is at least 48 px both ways. A checkbox or radio is hit through
 * its label; a field only assistive technology sees (.visually-hidden) is no target.
 */
export async function expectTouchTargets(page: Page, screen = ''): Promise<void> {
  const small = await page.evaluate((min) => {
    const tooSmall: string[] = [];
    for (const control of document.querySelectorAll<HTMLElement>('button, a[href], select, textarea, input, [role="button"]')) {
      if (control.matches('.visually-hidden') || !control.checkVisibility()) continue;
      const target = control.matches('input[type="checkbox"], input[type="radio"]') ? (control.closest('label') ?? control) : control;
      const box = target.getBoundingClientRect();
      if (box.width < min || box.height < min) {
        const name = target.getAttribute('aria-label') ?? target.textContent?.trim().slice(0, 30);
        tooSmall.push(`${target.tagName} "${name}" ${Math.round(box.width)}x${Math.round(box.height)}`);
      }
    }
    return tooSmall;
  }, TOUCH_TARGET_PX);
  if (small.length > 0) throw new Error(`touch targets under ${TOUCH_TARGET_PX} px on ${screen || page.url()}:\n${small.join('\n')}`);
}

/**
 * What every shopper screen a journey shows must pass: axe, then in its orientation and turned the
 * other way, touch targets and a screenshot (`<name>-portrait.png` and `<name>-landscape.png`).
 */
export async function checkShopperScreen(page: Page, name: string): Promise<void> {
  await expectAccessible(page, name);
  const shown = page.viewportSize()!;
  for (const viewport of [shown, { width: shown.height, height: shown.width }]) {
    await page.setViewportSize(viewport);
    await expectTouchTargets(page, `${name} ${viewport.width}x${viewport.height}`);
    await screenshot(page, name);
  }
  await page.setViewportSize(shown);
}

/** Like openKiosk, but every bridge call the page makes is recorded (by name) from the start. */
export async function openKioskRecordingCalls(
  browser: Browser,
  kiosk: KioskUnderTest,
  viewport: keyof typeof KIOSK_VIEWPORTS = 'portrait',
  options: KioskPageOptions = {},
): Promise<{ page: Page; calls: string[] }> {
  const page = await newKioskPage(browser, viewport, options);
  const calls = recordBridgeCalls(page);
  await loadKiosk(page, kiosk);
  return { page, calls };
}

/** Records, by name and in order, every bridge call `page` makes from now on, into `calls`. */
export function recordBridgeCalls(page: Page, calls: string[] = []): string[] {
  page.on('websocket', (socket) =>
    socket.on('framesent', ({ payload }) => {
      try {
        const { call } = JSON.parse(String(payload)) as { call?: unknown };
        if (typeof call === 'string') calls.push(call);
      } catch {
        // Not a bridge request.
      }
    }),
  );
  return calls;
}

/**
 * Types `text` by tapping the on-screen keyboard's keys (it must be showing), the keys found by
 * their accessible names in `layout` of renderer/keyboard/layouts.std.ts; multi-character keys
 * such as `.nl` are used where the text allows.
 */
export async function tapOnScreenKeyboard(page: Page, text: string, layout: LayoutName = 'email'): Promise<void> {
  const keyboard = page.getByTestId('on-screen-keyboard');
  await keyboard.waitFor();
  const keys = layouts[layout]
    .flat()
    .filter((key) => key.kind === 'text')
    .map((key) => ({ text: key.text, name: key.name ? messages.en[key.name] : key.text }))
    .sort((a, b) => b.text.length - a.text.length);
  for (let rest = text; rest.length > 0; ) {
    const key = keys.find((candidate) => rest.startsWith(candidate.text));
    if (!key) throw new Error(`no key for "${rest[0]}" on the ${layout} keyboard`);
    await keyboard.getByRole('button', { name: key.name, exact: true }).tap();
    rest = rest.slice(key.text.length);
  }
}

/**
 * A keyboard-wedge scanner under load: like wedgeScan, but the keys go out as one burst, stamped
 * `intervalMs` apart, the way the OS queues a real scanner's keys. (Playwright's keyboard.type waits
 * for each key's round trip, so on a busy machine its keys arrive 50-150 ms apart and the kiosk
 * rightly takes them for a person typing: the scan splits and its first characters are lost.)
 */
export async function scannerBurst(page: Page, value: string, intervalMs = 4): Promise<{ lastKeyAt: number }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    // Pressed just now, the last key (Enter) at this moment: none stamped in the page's future.
    const lastKeyAt = Date.now();
    const start = (lastKeyAt - value.length * intervalMs) / 1000;
    const sent: Array<Promise<unknown>> = [];
    [...value, 'Enter'].forEach((key, index) => {
      const timestamp = start + (index * intervalMs) / 1000;
      const fields =
        key === 'Enter'
          ? { key, code: 'Enter', windowsVirtualKeyCode: 13, text: '\r', unmodifiedText: '\r' }
          : { key, text: key, unmodifiedText: key };
      sent.push(cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', timestamp, ...fields }));
      sent.push(cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', timestamp: timestamp + 0.001, key, ...('code' in fields ? { code: fields.code, windowsVirtualKeyCode: 13 } : {}) }));
    });
    await Promise.all(sent);
    // Epoch ms of the Enter's stamp (its key-up a millisecond later): the time the page's events carry.
    return { lastKeyAt: lastKeyAt + 1 };
  } finally {
    await cdp.detach();
  }
}
