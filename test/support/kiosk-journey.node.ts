import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ConfigStore } from '../../main/config/config-store.node.ts';
import { silentLogger } from '../../main/logging/logger.std.ts';
import { createLoyaltyClient, type LoyaltyClient } from '../../main/loyalty/client.node.ts';
import { startBrowserHostProcess, type BrowserHostProcess } from './browser-host-process.node.ts';
import { KIOSK_VIEWPORTS } from './chromium.node.ts';

export interface SandboxManifest {
  base_url: string;
  credentials: { api_key: string; access_token: string; personal_access_token: string };
  shops: Array<{ uuid: string; name: string }>;
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
export async function startKiosk(settings: Record<string, unknown> = {}, dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-journey-'))): Promise<KioskUnderTest> {
  const store = new ConfigStore({ dataDir, logger: silentLogger });
  for (const [key, value] of Object.entries(settings)) store.set(key, value);
  const host = await startBrowserHostProcess({ dataDir });
  const manifest = JSON.parse(fs.readFileSync(host.sandbox!.manifestPath, 'utf8')) as SandboxManifest;
  const { api_key, access_token, personal_access_token } = manifest.credentials;
  const platform = createLoyaltyClient({
    baseUrl: manifest.base_url,
    credentials: async () => ({ apiKey: api_key, accessToken: access_token, personalAccessToken: personal_access_token }),
  });
  return { host, manifest, platform, dataDir };
}

export async function openKiosk(browser: Browser, kiosk: KioskUnderTest, viewport: keyof typeof KIOSK_VIEWPORTS = 'portrait'): Promise<Page> {
  const page = await browser.newPage({ viewport: KIOSK_VIEWPORTS[viewport], hasTouch: true });
  await page.goto(kiosk.host.url);
  await page.getByTestId('attract-screen').waitFor();
  return page;
}

/** A keyboard-wedge scanner: a burst of keys 4 ms apart, ended by Enter. */
export async function wedgeScan(page: Page, value: string) {
  await page.keyboard.type(value, { delay: 4 });
  await page.keyboard.press('Enter');
}

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
