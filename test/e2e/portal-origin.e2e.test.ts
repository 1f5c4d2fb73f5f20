import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../main/config/config-store.node.ts';
import { silentLogger } from '../../main/logging/logger.std.ts';
import { KeytarSecretStore, SECRET_NAMES } from '../../main/secrets/secret-store.node.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/sandbox.node.ts';
import { startBrowserHostProcess, type BrowserHostProcess } from '../support/browser-host-process.node.ts';
import { KIOSK_VIEWPORTS, launchChromium } from '../support/chromium.node.ts';
import { dataFiles } from '../../main/paths/data-files.node.ts';

/** The host's keychain service (KIOSK_KEYCHAIN_SERVICE): this test's own, never a real kiosk's. */
const KEYCHAIN_SERVICE = `loyalty-kiosk-e2e-portal-origin-${process.pid}`;

/**
 * #15 §2 on a connected kiosk: the platform's hosted pages live on an origin of their own (the
 * sandbox's second port), which the kiosk has never seen. With portal.allowedOrigins empty it takes
 * the origin the platform returns, and the page, whose CSP did not list it yet, reloads once into
 * the same session; from then on the CSP lists it.
 */
describe('hosted pages on their own origin, learned from the platform', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-portal-origin-'));
  const secrets = new KeytarSecretStore({ logger: silentLogger, service: KEYCHAIN_SERVICE });
  let sandbox: RunningSandbox;
  let host: BrowserHostProcess | undefined;
  let browser: Browser;

  beforeAll(async () => {
    const status = await secrets.status();
    if (status.keychain !== 'available') throw new Error(`no keychain: ${status.reason} (run under test/with-keyring.sh)`);
    [sandbox, browser] = await Promise.all([
      startSandbox({ port: 0, portalPort: 0, dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-portal-platform-')) }),
      launchChromium(),
    ]);
    await secrets.set('apiKey', sandbox.manifest.credentials.api_key);
    await secrets.set('accessToken', sandbox.manifest.credentials.access_token);
    const config = new ConfigStore({ dataDir, logger: silentLogger });
    config.setMany({
      'api.baseUrl': sandbox.baseUrl,
      'api.shopUuid': sandbox.manifest.shops[0]!.uuid,
      'kiosk.modes': ['credit-reception'],
      'session.scanner_type': 'hand_scanner',
    });
    host = await startBrowserHostProcess({ dataDir, env: { KIOSK_KEYCHAIN_SERVICE: KEYCHAIN_SERVICE } });
  });

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
    await sandbox?.close();
    for (const name of SECRET_NAMES) await secrets.remove(name);
  });

  async function startSession(page: Page) {
    await page.getByTestId('attract-screen').getByRole('button', { name: 'Collect credits', exact: true }).click();
    await expect
      .poll(() => page.frameLocator('[data-testid="portal-screen"] iframe').locator('h1').textContent(), { timeout: 15_000 })
      .toBe('Collect credits');
    return page.getByTestId('portal-screen').getAttribute('data-session');
  }

  it('frames a page from an origin it has not seen, reloading once into the same session, then never again', async () => {
    const page = await browser.newPage({ viewport: KIOSK_VIEWPORTS.portrait, hasTouch: true });
    await page.goto(host!.url);
    await page.getByTestId('attract-screen').waitFor();
    const csp = async () => (await page.request.get(page.url())).headers()['content-security-policy'] ?? '';
    expect(await csp()).not.toContain(sandbox.portalOrigin);
    await page.evaluate(() => ((window as unknown as { beforeReload: boolean }).beforeReload = true));

    const first = await startSession(page);
    // The page was reloaded (its globals are gone) and reopened the very session it had started.
    await expect(page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload)).resolves.toBeUndefined();
    await expect(page.evaluate(() => sessionStorage.getItem('kiosk.portalReloadedFor'))).resolves.toBe(first);
    await expect(page.locator('iframe').getAttribute('src')).resolves.toMatch(new RegExp(`^${sandbox.portalOrigin}/`));
    expect(JSON.parse(fs.readFileSync(dataFiles(dataDir).portalOrigins, 'utf8'))).toEqual({
      [new URL(sandbox.baseUrl).origin]: [sandbox.portalOrigin],
    });

    await page.getByTestId('portal-screen').getByRole('button', { name: /I.m done/ }).click();
    await page.getByTestId('attract-screen').waitFor();
    expect(await csp()).toContain(`frame-src ${new URL(sandbox.baseUrl).origin} ${sandbox.portalOrigin}`);
    await page.evaluate(() => ((window as unknown as { beforeReload: boolean }).beforeReload = true));
    const second = await startSession(page);
    expect(second).not.toBe(first);
    await expect(page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload)).resolves.toBe(true);
    await page.close();
  });
});
