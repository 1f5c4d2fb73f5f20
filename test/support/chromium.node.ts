import fs from 'node:fs';
import { chromium, type Browser, type BrowserContextOptions, type LaunchOptions } from 'playwright-core';

/** Debian's Chromium; Playwright's own browser download cannot work on a kiosk image or in CI. */
export const CHROMIUM_PATH = process.env.KIOSK_TEST_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function chromiumAvailable(): boolean {
  return fs.existsSync(CHROMIUM_PATH);
}

/**
 * Debian's Chromium, headless. Every page it opens prefers reduced motion (the kiosk's own style
 * for it) unless the test asks otherwise: without a GPU, the attract screen's endless drift and
 * beam cost Chromium most of a core per open page (8.4 s of CPU in 10 s, against 0.7 s), which
 * starved every other test on a 2-core machine. Playwright sets the preference per context, so
 * a command-line flag would be overridden.
 */
export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  if (!chromiumAvailable()) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install the Debian package "chromium"`);
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    ...options,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
  });
  const newContext = browser.newContext.bind(browser);
  const newPage = browser.newPage.bind(browser);
  return Object.assign(browser, {
    newContext: (context: BrowserContextOptions = {}) => newContext({ reducedMotion: 'reduce', ...context }),
    newPage: (context: BrowserContextOptions = {}) => newPage({ reducedMotion: 'reduce', ...context }),
  });
}

/** The kiosk's two panel shapes. */
export const KIOSK_VIEWPORTS = {
  portrait: { width: 1080, height: 1920 },
  landscape: { width: 1920, height: 1080 },
} as const;
