import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashPin } from '../../main/manager/pin-hash.node.ts';
import type { SandboxManifest } from '../../sandbox/sandbox.node.ts';
import { KIOSK_VIEWPORTS, launchChromium } from '../support/chromium.node.ts';
import { startBrowserHostProcess, type BrowserHostProcess } from '../support/browser-host-process.node.ts';
import { cardOf, kioskEvents, kioskLog, scannerBurst } from '../support/kiosk-journey.node.ts';
import { killProcessesMentioning } from '../support/processes.node.ts';
import { dataFiles } from '../../main/paths/data-files.node.ts';

/**
 * #20 §4: a browser host restarted (console, fleet, nightly) leaves exactly one kiosk page, and
 * it works. The host opens its "browser" itself here: a script that only notes each launch.
 */
const PIN = '2580';
const env = { KIOSK_KEYCHAIN_SERVICE: `loyalty-kiosk-test-${crypto.randomUUID()}`, INVOCATION_ID: '' };

let browser: Browser;
const hosts: BrowserHostProcess[] = [];
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  for (const host of hosts.splice(0)) {
    await host.stop('SIGKILL');
    // A successor is not the test's child: whatever still runs on the folder goes too.
    killProcessesMentioning(host.dataDir);
  }
});

/** A demo kiosk with a PIN set, whose every browser launch is noted in `launches`. */
async function startHost(extraEnv: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-restart-'));
  fs.writeFileSync(dataFiles(dataDir).config, JSON.stringify({ manager: { pinHash: await hashPin(PIN) } }));
  const launches = path.join(dataDir, 'browser-launches.txt');
  const fakeBrowser = path.join(dataDir, 'fake-browser.sh');
  fs.writeFileSync(fakeBrowser, `#!/bin/sh\necho launched >> '${launches}'\n`, { mode: 0o755 });
  // A display as a kiosk has one (the host opens no browser without): the fake browser needs none.
  const host = await startBrowserHostProcess({ dataDir, open: true, env: { ...env, KIOSK_BROWSER: fakeBrowser, DISPLAY: ':99', ...extraEnv } });
  hosts.push(host);
  const launched = () => (fs.existsSync(launches) ? fs.readFileSync(launches, 'utf8').split('\n').filter(Boolean).length : 0);
  return { host, launched };
}

async function openPage(url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: KIOSK_VIEWPORTS.portrait, hasTouch: true });
  await page.goto(url);
  await page.getByTestId('attract-screen').waitFor();
  return page;
}

/** The console's restart (or quit), asked through the page's own bridge as the console asks it. */
async function ask(page: Page, ...calls: Array<'restartKiosk' | 'quitKiosk'>) {
  await page.evaluate(
    async ({ pin, calls }) => {
      const kiosk = (window as unknown as { kiosk: Record<string, (input: unknown) => Promise<unknown>> }).kiosk;
      await kiosk.unlockManager!({ pin });
      // Not awaited: the process may end before it answers.
      for (const call of calls) void kiosk[call]!({});
    },
    { pin: PIN, calls },
  );
}

/** Resolves once `page` has loaded afresh after a restart, and shows the attract screen again. */
async function reloadedAfter(page: Page, restart: () => Promise<unknown>) {
  await page.evaluate(() => ((window as unknown as { beforeRestart: boolean }).beforeRestart = true));
  await restart();
  await expect.poll(() => page.evaluate(() => (window as unknown as { beforeRestart?: boolean }).beforeRestart ?? false), { timeout: 30_000 }).toBe(false);
  await page.getByTestId('attract-screen').waitFor();
}

const stoppedLines = (host: BrowserHostProcess) => kioskEvents(host.dataDir, 'services.stopped').length;

describe('a browser host that restarts', () => {
  it('keeps one page, which loads afresh from the new process and works; no second browser is opened', async () => {
    const { host, launched } = await startHost();
    // The host opens the browser once it has printed its address: wait for the launch, not for a time.
    await expect.poll(launched).toBe(1);
    const page = await openPage(host.url);

    await reloadedAfter(page, () => ask(page, 'restartKiosk'));
    await expect(host.exitCode).resolves.toBe(0);
    await reloadedAfter(page, () => ask(page, 'restartKiosk'));

    // Three processes, one address: the page never had to be told where to go.
    expect(host.urls()).toEqual([host.url, host.url, host.url]);
    expect(launched()).toBe(1);
    expect(stoppedLines(host)).toBe(2);
    // The page works: a sample card brings the shopper home.
    const manifest = JSON.parse(fs.readFileSync(host.sandbox!.manifestPath, 'utf8')) as SandboxManifest;
    await scannerBurst(page, cardOf(manifest, 'sanne.devries@example.nl').card);
    await page.getByTestId('home-screen').waitFor();

    await ask(page, 'quitKiosk');
    await host.outputClosed;
    expect(stoppedLines(host)).toBe(3);
    await page.close();
  });

  it('under systemd (INVOCATION_ID) only exits, closing its services first: the unit starts the next one', async () => {
    const { host, launched } = await startHost({ INVOCATION_ID: 'e2e-invocation' });
    const page = await openPage(host.url);
    await ask(page, 'restartKiosk');
    await expect(host.exitCode).resolves.toBe(0);
    await host.outputClosed;
    expect(host.urls()).toHaveLength(1);
    expect(stoppedLines(host)).toBe(1);
    expect(launched()).toBe(1);
    await page.close();
  });

  it('takes a second restart asked while the first is closing the services: one successor, after the close', async () => {
    const { host } = await startHost();
    const page = await openPage(host.url);
    await reloadedAfter(page, () => ask(page, 'restartKiosk', 'restartKiosk'));
    expect(host.urls()).toHaveLength(2);
    const log = kioskLog(host.dataDir).map((line) => line.event);
    expect(log.indexOf('services.stopped')).toBeLessThan(log.lastIndexOf('services.started'));
    expect(stoppedLines(host)).toBe(1);
    await page.close();
  });
});
