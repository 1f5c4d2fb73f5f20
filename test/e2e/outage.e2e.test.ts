import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../main/config/config-store.node.ts';
import { silentLogger } from '../../main/logging/logger.std.ts';
import { KeytarSecretStore, SECRET_NAMES } from '../../main/secrets/secret-store.node.ts';
import { startBrowserHostProcess, type BrowserHostProcess } from '../support/browser-host-process.node.ts';
import { KIOSK_VIEWPORTS, launchChromium } from '../support/chromium.node.ts';
import { cardOf, checkShopperScreen, kioskLog, kioskEvents, platformClientFor, scannerBurst, type SandboxManifest, visitSessionLogged } from '../support/kiosk-journey.node.ts';
import { builtCli } from '../support/built-cli.node.ts';
import { dataFiles } from '../../main/paths/data-files.node.ts';

/**
 * A connected kiosk (not demo): the platform is a sandbox in its own process, its credentials in
 * the OS keychain under the service name the browser host is told to use. The platform goes away,
 * a shopper scans, the kiosk goes out of service; the platform comes back and the kiosk serves
 * again by itself. Run under test/with-keyring.sh: a private, unlocked keyring.
 */

/** The host's keychain service (KIOSK_KEYCHAIN_SERVICE): this test's own, never a real kiosk's. */
const KEYCHAIN_SERVICE = `loyalty-kiosk-e2e-outage-${process.pid}`;
const RETRY_MS = 300;

interface SandboxProcess {
  baseUrl: string;
  port: number;
  manifest: SandboxManifest;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** The sandbox CLI (`--port N --data DIR`) as its own process, the way a store trial runs it. */
async function startSandboxProcess(dataDir: string, port: number): Promise<SandboxProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [builtCli('sandbox'), '--port', String(port), '--data', dataDir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /^Loyalty sandbox listening on (\S+)$/m.exec(stdout)?.[1];
      if (url) resolve(url);
    });
    void exited.then(() => reject(new Error(`sandbox exited before it was ready:\n${stderr}`)));
    setTimeout(() => reject(new Error(`sandbox did not start:\n${stderr}`)), 20_000);
  });
  const manifest = JSON.parse(fs.readFileSync(path.join(dataDir, 'sandbox.json'), 'utf8')) as SandboxManifest;
  return {
    baseUrl,
    port: Number(new URL(baseUrl).port),
    manifest,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

describe('outage: a connected kiosk goes out of service with its platform and comes back by itself', () => {
  const sandboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-outage-platform-'));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-outage-'));
  const secrets = new KeytarSecretStore({ logger: silentLogger, service: KEYCHAIN_SERVICE });
  let sandbox: SandboxProcess | undefined;
  let host: BrowserHostProcess | undefined;
  let browser: Browser;
  let page: Page;
  let storedSecrets = false;

  beforeAll(async () => {
    const before = await secrets.status();
    if (before.keychain !== 'available') throw new Error(`no keychain: ${before.reason} (run under test/with-keyring.sh)`);
    expect(before.stored).toEqual({ apiKey: false, accessToken: false, personalAccessToken: false, mqttPassword: false });

    [sandbox, browser] = await Promise.all([startSandboxProcess(sandboxDir, 0), launchChromium()]);
    const { api_key, access_token, personal_access_token } = sandbox.manifest.credentials;
    storedSecrets = true;
    await secrets.set('apiKey', api_key);
    await secrets.set('accessToken', access_token);
    await secrets.set('personalAccessToken', personal_access_token);

    const config = new ConfigStore({ dataDir, logger: silentLogger });
    config.set('api.baseUrl', sandbox.baseUrl);
    // The second shop: the portal session must name the configured one, not a default.
    config.set('api.shopUuid', sandbox.manifest.shops[1]!.uuid);
    config.set('session.scanner_type', 'hand_scanner');
    host = await startBrowserHostProcess({ dataDir, env: { KIOSK_SERVICE_RETRY_MS: String(RETRY_MS), KIOSK_KEYCHAIN_SERVICE: KEYCHAIN_SERVICE } });
  });

  afterAll(async () => {
    await browser?.close();
    await host?.stop();
    await sandbox?.stop();
    if (storedSecrets) {
      for (const name of SECRET_NAMES) await secrets.remove(name);
      expect((await secrets.status()).stored).toEqual({ apiKey: false, accessToken: false, personalAccessToken: false, mqttPassword: false });
    }
  });

  it('attract shows without the demo badge; out of service while the platform is down; home once it is back', async () => {
    expect(host!.sandbox).toBeUndefined();
    page = await browser.newPage({ viewport: KIOSK_VIEWPORTS.portrait, hasTouch: true });
    await page.goto(host!.url);
    await page.getByTestId('attract-screen').waitFor();
    await expect(page.getByTestId('demo-badge').count()).resolves.toBe(0);
    await expect(page.evaluate(() => window.kiosk.getAppInfo())).resolves.toMatchObject({ ok: true, value: { demo: false } });
    await expect(page.evaluate(() => window.kiosk.getServiceStatus())).resolves.toMatchObject({ ok: true, value: { available: true } });
    await checkShopperScreen(page, 'outage-connected-attract');

    const port = sandbox!.port;
    const manifest = sandbox!.manifest;
    const sanne = cardOf(manifest, 'sanne.devries@example.nl');

    // The platform dies hard.
    await sandbox!.stop('SIGKILL');
    await scannerBurst(page, sanne.card);
    await page.getByTestId('out-of-service').waitFor({ timeout: 10_000 });
    await expect(page.getByTestId('home-screen').count()).resolves.toBe(0);
    await checkShopperScreen(page, 'outage-out-of-service');
    // It asks the shopper to ask staff, so it calls them (#33 §11); a screen cannot make it call twice.
    await page.getByTestId('call-staff').click();
    await expect(page.getByTestId('staff-called').textContent()).resolves.toBe('Staff have been called.');
    await expect(page.evaluate(() => window.kiosk.callStaff({ reason: 'error.unavailable', locale: 'en' }))).resolves.toEqual({ ok: true, value: null });
    expect(kioskEvents(dataDir, 'staff.called').map((event) => event.reason)).toEqual(['error.unavailable']);
    // It stays out of service while the platform is away (several probes fail meanwhile).
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS * 3));
    await expect(page.getByTestId('out-of-service').isVisible()).resolves.toBe(true);

    // Back on the same port with the same data: the screen goes away without anyone touching it.
    sandbox = await startSandboxProcess(sandboxDir, port);
    expect(sandbox.baseUrl).toBe(manifest.base_url);
    await page.getByTestId('out-of-service').waitFor({ state: 'detached', timeout: 10_000 });
    await page.getByTestId('attract-screen').waitFor();

    await scannerBurst(page, sanne.card);
    await page.getByTestId('home-screen').waitFor();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('s•••@example.nl');
    await page.getByTestId('voucher-list').waitFor();
    await checkShopperScreen(page, 'outage-recovered-home');

    // In the platform: the visit's session, for Sanne, in the configured shop.
    const platform = platformClientFor(sandbox.manifest);
    await visitSessionLogged(dataDir, 0);
    const created = kioskEvents(dataDir, 'portal.session_created');
    expect(created).toHaveLength(1);
    const session = (await platform.getPortalSession({ portal_session_uuid: created[0]!.portalSession as string })).data;
    expect(session.contact?.uuid).toBe(sanne.uuid);
    expect(session.shop.uuid).toBe(manifest.shops[1]!.uuid);

    // The kiosk's log tells the story, and never holds a credential.
    const events = kioskLog(dataDir).map((line) => line.event);
    expect(events).toContain('platform.unavailable');
    expect(events).toContain('platform.reachable');
    const logText = fs.readFileSync(path.join(dataFiles(dataDir).logs, 'kiosk.log'), 'utf8');
    for (const secret of Object.values(manifest.credentials)) expect(logText).not.toContain(secret);
  });
});
