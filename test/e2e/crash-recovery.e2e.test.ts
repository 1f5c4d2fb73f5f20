import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../main/config/config-store.node.ts';
import { silentLogger } from '../../main/logging/logger.std.ts';
import { KeytarSecretStore, SECRET_NAMES } from '../../main/secrets/secret-store.node.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/sandbox.node.ts';
import { startBrowserHostProcess } from '../support/browser-host-process.node.ts';
import { startFaultProxy, type FaultProxy, type ProxiedRequest } from '../support/fault-proxy.node.ts';
import { launchChromium } from '../support/chromium.node.ts';
import {
  cardOf,
  openKiosk,
  platformClientFor,
  screenshot,
  startKiosk,
  scannerBurst,
  kioskEvents,
  type KioskUnderTest,
} from '../support/kiosk-journey.node.ts';
import { dataFiles } from '../../main/paths/data-files.node.ts';

/**
 * A kiosk that dies hard (SIGKILL: no quit handler, no release) and starts again on the same data
 * folder. The embedded sandbox keeps its state in <dataDir>/sandbox, so the voucher's fate is
 * read from the sandbox the restarted kiosk runs (on a new port: the manifest is read again).
 * Run under test/with-keyring.sh: the connected kiosks keep their credentials in a private keyring.
 */


function journalEntries(dataDir: string): unknown[] {
  const file = dataFiles(dataDir).voucherLocks;
  if (!fs.existsSync(file)) return [];
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { entries: unknown[] }).entries;
}

const isRedeem = (request: ProxiedRequest) => request.method === 'POST' && request.path.endsWith('/vouchers/redeem');

describe('crash recovery: voucher locks survive a killed kiosk', () => {
  let browser: Browser;
  const kiosks: KioskUnderTest[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterEach(async () => {
    for (const kiosk of kiosks.splice(0)) await kiosk.host.stop('SIGKILL');
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function start(dataDir?: string) {
    const kiosk = await startKiosk({ 'session.scanner_type': 'hand_scanner' }, dataDir);
    kiosks.push(kiosk);
    return kiosk;
  }

  /** Card → home → her top coffee voucher → Redeem: the confirm screen, that voucher locked for this kiosk. */
  async function toConfirm(kiosk: KioskUnderTest, shots: string): Promise<{ page: Page; code: string }> {
    const page = await openKiosk(browser, kiosk);
    const sanne = cardOf(kiosk.manifest, 'sanne.devries@example.nl');
    await scannerBurst(page, sanne.card);
    await page.getByTestId('home-screen').waitFor();
    await page.getByRole('button', { name: /Gratis koffie/ }).first().click();
    await page.getByTestId('voucher-screen').waitFor();
    await page.getByTestId('redeem').click();
    await page.getByTestId('confirm-screen').waitFor();
    await screenshot(page, `${shots}-confirm`);
    // Which coffee voucher was on top does not matter: exactly one of hers is locked now.
    const hers = (await kiosk.platform.listVouchers({ contact_uuid: sanne.uuid, limit: 100 })).data;
    const locked = hers.filter((voucher) => voucher.status === 'LOCKED');
    expect(locked).toHaveLength(1);
    return { page, code: locked[0]!.code };
  }

  it('a lock held on the confirm screen is released by the next start, never redeemed', async () => {
    const first = await start();
    const { page, code } = await toConfirm(first, 'crash-locked');
    const locked = (await first.platform.findVoucher({ code })).data;
    expect(locked).toMatchObject({ status: 'LOCKED', times_redeemed: 0 });
    expect(journalEntries(first.dataDir)).toHaveLength(1);

    await first.host.stop('SIGKILL');
    await page.close();
    // Nothing let go of the lock on the way down: the journal still holds it.
    expect(journalEntries(first.dataDir)).toHaveLength(1);

    const second = await start(first.dataDir);
    expect(second.manifest.base_url).toBe(second.host.sandbox!.baseUrl);
    // recover() runs at start; within a few seconds the voucher is free again, and stays so.
    await expect
      .poll(async () => (await second.platform.findVoucher({ code })).data.status, { timeout: 5_000, interval: 100 })
      .toBe('ACTIVE');
    // Released, not redeemed and not locked again: it stays ACTIVE with no redemption counted.
    for (let look = 0; look < 5; look++) {
      expect((await second.platform.findVoucher({ code })).data).toMatchObject({ status: 'ACTIVE', times_redeemed: 0 });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await expect.poll(() => journalEntries(first.dataDir)).toEqual([]);
    // The log line follows the journal's last write: waited for, not read at once.
    const settled = () => kioskEvents(first.dataDir, 'voucher.locks_settled')[0]?.settled;
    await expect.poll(settled).toEqual([{ voucherUuid: locked.uuid, outcome: 'released' }]);

    // The restarted kiosk serves, and the voucher is as good as new: redeemed now, exactly once.
    const again = await openKiosk(browser, second);
    await screenshot(again, 'crash-restarted-attract');
    await scannerBurst(again, cardOf(second.manifest, 'sanne.devries@example.nl').card);
    await again.getByTestId('home-screen').waitFor();
    await scannerBurst(again, code);
    await again.getByTestId('voucher-screen').waitFor();
    await again.getByTestId('redeem').click();
    await again.getByTestId('confirm').click();
    await again.getByTestId('redeemed-screen').waitFor();
    expect((await second.platform.findVoucher({ code })).data).toMatchObject({ status: 'REDEEMED', times_redeemed: 1 });
    await again.close();
  });

  /**
   * A connected kiosk whose platform (an in-process sandbox) sits behind the loopback fault proxy,
   * which holds Redeem Voucher: after the platform carried it out (the answer is dropped) or before
   * it gets there (the request is dropped). The kiosk is killed while its redeem waits; a new one
   * starts on the same data folder.
   */
  describe.each([
    ['after the platform redeemed it: the restart finds the redemption and never repeats it', 'after', 'redeemed', 'REDEEMED', 1],
    ['before it reached the platform: the restart releases the lock and redeems nothing', 'before', 'released', 'ACTIVE', 0],
  ] as const)('killed while its redeem is on the way, %s', (_case, hold, outcome, status, timesRedeemed) => {
    const keychainService = `loyalty-kiosk-e2e-crash-${hold}-${process.pid}`;
    const secrets = new KeytarSecretStore({ logger: silentLogger, service: keychainService });
    let sandbox: RunningSandbox;
    let proxy: FaultProxy;

    beforeAll(async () => {
      sandbox = await startSandbox({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'crash-platform-')), port: 0 });
      proxy = await startFaultProxy(sandbox.baseUrl);
      const { api_key, access_token, personal_access_token } = sandbox.manifest.credentials;
      await secrets.set('apiKey', api_key);
      await secrets.set('accessToken', access_token);
      await secrets.set('personalAccessToken', personal_access_token);
    });
    afterAll(async () => {
      for (const name of SECRET_NAMES) await secrets.remove(name);
      await proxy?.close();
      await sandbox?.close();
    });

    async function startConnected(dataDir: string): Promise<KioskUnderTest> {
      const host = await startBrowserHostProcess({ dataDir, env: { KIOSK_KEYCHAIN_SERVICE: keychainService } });
      const kiosk = { host, manifest: sandbox.manifest, platform: platformClientFor(sandbox.manifest), dataDir };
      kiosks.push(kiosk);
      return kiosk;
    }

    it('never leaves the voucher locked and never redeems it twice', async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-journey-'));
      const config = new ConfigStore({ dataDir, logger: silentLogger });
      config.set('api.baseUrl', proxy.baseUrl);
      config.set('api.shopUuid', sandbox.manifest.shops[0]!.uuid);
      config.set('session.scanner_type', 'hand_scanner');

      const first = await startConnected(dataDir);
      const { page, code } = await toConfirm(first, `crash-${hold}`);
      // The next redeem only: held after the platform redeemed it, or before it gets there.
      let holding = true;
      proxy.decide = (request) => {
        if (!holding || !isRedeem(request)) return undefined;
        holding = false;
        return hold === 'after' ? 'drop_answer' : 'drop_request';
      };
      await page.getByTestId('confirm').click();
      await expect.poll(() => proxy.faultCount(), { timeout: 10_000 }).toBe(1);
      await expect.poll(async () => (await first.platform.findVoucher({ code })).data.status).toBe(hold === 'after' ? 'REDEEMED' : 'LOCKED');
      await first.host.stop('SIGKILL');
      await page.close();
      // The redemption was under way: the journal says so, and keeps its key for the next start.
      expect(journalEntries(dataDir)).toEqual([expect.objectContaining({ phase: 'redeeming' })]);

      proxy.decide = () => undefined;
      const second = await startConnected(dataDir);
      const settled = () => kioskEvents(dataDir, 'voucher.locks_settled')[0]?.settled;
      await expect.poll(settled, { timeout: 10_000 }).toEqual([{ voucherUuid: expect.any(String), outcome }]);
      expect(journalEntries(dataDir)).toEqual([]);
      expect((await second.platform.findVoucher({ code })).data).toMatchObject({ status, times_redeemed: timesRedeemed });
      expect(proxy.log.filter((request) => isRedeem(request) && request.forwarded)).toHaveLength(timesRedeemed);

      // The restarted kiosk serves, and shows the voucher for what it now is.
      const again = await openKiosk(browser, second);
      await scannerBurst(again, cardOf(second.manifest, 'sanne.devries@example.nl').card);
      await again.getByTestId('home-screen').waitFor();
      await scannerBurst(again, code);
      await again.getByTestId('voucher-screen').waitFor();
      await expect(again.getByTestId('redeem').count()).resolves.toBe(hold === 'after' ? 0 : 1);
      await screenshot(again, `crash-${hold}-rescan`);
      await again.close();
    });
  });
});
