import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../sandbox/sandbox.node.ts';
import { startFaultProxy, type Fault, type FaultProxy, type ProxiedRequest } from '../test/support/fault-proxy.node.ts';
import { kioskLog } from '../test/support/kiosk-journey.node.ts';
import { BridgeConnection } from './bridge/dispatcher.std.ts';
import { startKioskServices, type KioskServices } from './kiosk-services.node.ts';
import { createLoyaltyClient, type LoyaltyClient } from './loyalty/client.node.ts';
import { silentLogger } from './logging/logger.std.ts';
import { KeytarSecretStore, SECRET_NAMES } from './secrets/secret-store.node.ts';

/**
 * Redemption across the bridge, as the renderer sees it: real kiosk services connected through a
 * loopback fault proxy to a real sandbox, credentials in the (test) keychain. Run under
 * test/with-keyring.sh.
 */

const ACTION_BUDGET_MS = 1_500;

describe('redemption across the bridge, through a fault proxy', () => {
  const keychainService = `loyalty-kiosk-test-${crypto.randomUUID()}`;
  const secrets = new KeytarSecretStore({ logger: silentLogger, service: keychainService });
  let platform: RunningSandbox;
  let proxy: FaultProxy;
  let admin: LoyaltyClient;
  let services: KioskServices;
  let dataDir: string;
  const shopper = new BridgeConnection('shopper');
  const call = (name: string, input: unknown) => services.dispatch(name, input, shopper);

  beforeAll(async () => {
    platform = await startSandbox({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'bridge-platform-')), port: 0 });
    proxy = await startFaultProxy(platform.baseUrl, { delayMs: 400 });
    const { api_key, access_token, personal_access_token } = platform.manifest.credentials;
    await secrets.set('apiKey', api_key);
    await secrets.set('accessToken', access_token);
    await secrets.set('personalAccessToken', personal_access_token);
    admin = createLoyaltyClient({ baseUrl: platform.baseUrl, credentials: async () => ({ apiKey: api_key }) });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bridge-kiosk-'));
    fs.writeFileSync(
      path.join(dataDir, 'config.json'),
      JSON.stringify({ api: { baseUrl: proxy.baseUrl, shopUuid: platform.manifest.shops[0]!.uuid } }),
    );
    services = await startKioskServices({ dataDir, version: 'test', keychainService, actionBudgetMs: ACTION_BUDGET_MS, serviceRetryMs: 60_000 });
  });
  beforeEach(() => {
    proxy.decide = () => undefined;
  });
  afterAll(async () => {
    await services?.close();
    await proxy?.close();
    await platform?.close();
    for (const name of SECRET_NAMES) await secrets.remove(name).catch(() => {});
  });

  const isRedeem = (request: ProxiedRequest) => request.path.endsWith('/vouchers/redeem');
  const isFind = (request: ProxiedRequest) => request.path.includes('/vouchers/find');
  /** Spoils the requests `which` picks with `fault`, and lets every other one through. */
  const spoil = (which: (request: ProxiedRequest) => boolean, fault: Fault) => {
    proxy.decide = (request) => (which(request) ? fault : undefined);
  };

  /** Locks through the bridge, and waits for the count under the lock (read beside the confirm screen) to be journaled. */
  async function lockCounted(input: { voucherUuid: string; code: string }) {
    const answer = await call('lockVoucher', input);
    const journal = path.join(dataDir, 'voucher-locks.json');
    const counted = () => (JSON.parse(fs.readFileSync(journal, 'utf8')) as { entries: Array<{ voucherUuid: string; timesRedeemedBefore: number | null }> }).entries;
    await expect.poll(() => counted().find((entry) => entry.voucherUuid === input.voucherUuid)?.timesRedeemedBefore).not.toBeNull();
    return answer;
  }

  async function freshVoucher(total_redemptions_allowed = 1) {
    const promotion_uuid = platform.manifest.promotions[0]!.uuid;
    const contact_uuid = platform.manifest.contacts[0]!.uuid;
    return (await admin.createVoucher({ promotion_uuid, contact_uuid, total_redemptions_allowed })).data;
  }

  it('never redeems a multi-use voucher twice for one confirm, and tells the renderer what really happened', async () => {
    const voucher = await freshVoucher(3);
    const input = { voucherUuid: voucher.uuid, code: voucher.code };
    expect(await lockCounted(input)).toMatchObject({ ok: true });

    // The redeem lands but its answer is cut off, and Find Voucher fails too.
    proxy.decide = (request) => (isRedeem(request) ? 'cut' : isFind(request) ? 'status_503' : undefined);
    expect(await call('redeemVoucher', { voucherUuid: voucher.uuid })).toEqual({ ok: true, value: { outcome: 'unsettled' } });

    // The shopper cancels while Find still fails: the lock was consumed, and the renderer hears so.
    spoil(isFind, 'status_503');
    expect(await call('releaseVoucher', { voucherUuid: voucher.uuid, reason: 'cancel' })).toEqual({ ok: true, value: { outcome: 'lock_gone' } });

    // The shopper redeems again: refused as redeemed, and the platform counts the one use.
    proxy.decide = () => undefined;
    expect(await call('lockVoucher', input)).toMatchObject({ ok: false, error: { code: 'conflict', platformCode: 80005 } });
    expect((await admin.findVoucher({ code: voucher.code })).data).toMatchObject({ status: 'ACTIVE', times_redeemed: 1 });
    expect(proxy.log.filter((request) => isRedeem(request) && request.forwarded)).toHaveLength(1);
  });

  it('locks a voucher the visit was given with the Lock alone: the count under it is read after, beside the confirm screen (#32)', async () => {
    const voucher = await freshVoucher(2);
    const listed = await call('listShopperVouchers', { contactUuid: platform.manifest.contacts[0]!.uuid, page: 1 });
    expect(listed).toMatchObject({ ok: true, value: { vouchers: expect.arrayContaining([expect.objectContaining({ uuid: voucher.uuid })]) } });
    const before = proxy.log.length;
    expect(await lockCounted({ voucherUuid: voucher.uuid, code: voucher.code })).toMatchObject({ ok: true });
    expect(proxy.log.slice(before).map((request) => request.path.replace(voucher.uuid, ':uuid').replace(/\?.*/, ''))).toEqual(['/api/vouchers/:uuid/lock', '/api/vouchers/find']);
    expect(await call('redeemVoucher', { voucherUuid: voucher.uuid })).toMatchObject({ ok: true, value: { outcome: 'redeemed' } });
  });

  it('finds a voucher the visit was not given before it locks it, and refuses a code that names another', async () => {
    const [voucher, other] = [await freshVoucher(), await freshVoucher()];
    const before = proxy.log.length;
    // The whole answer on failure: a refusal says which.
    expect(await call('lockVoucher', { voucherUuid: voucher.uuid, code: voucher.code })).toEqual({ ok: true, value: expect.objectContaining({ voucherUuid: voucher.uuid }) });
    expect(proxy.log[before]?.path).toContain('/vouchers/find');
    expect(await call('lockVoucher', { voucherUuid: voucher.uuid, code: other.code })).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect((await admin.findVoucher({ code: other.code })).data.status).toBe('ACTIVE');
    expect(await call('releaseVoucher', { voucherUuid: voucher.uuid, reason: 'cancel' })).toMatchObject({ ok: true });
  });

  it('answers a plain cancel with released', async () => {
    const voucher = await freshVoucher();
    await call('lockVoucher', { voucherUuid: voucher.uuid, code: voucher.code });
    expect(await call('releaseVoucher', { voucherUuid: voucher.uuid, reason: 'cancel' })).toEqual({ ok: true, value: { outcome: 'released' } });
    expect(await call('releaseVoucher', { voucherUuid: voucher.uuid, reason: 'cancel' })).toEqual({ ok: true, value: { outcome: 'not_held' } });
  });

  it('answers a second confirm while the first is in flight with busy at once, and logs no stack', async () => {
    const voucher = await freshVoucher();
    await call('lockVoucher', { voucherUuid: voucher.uuid, code: voucher.code });
    spoil(isRedeem, 'delay');
    const first = call('redeemVoucher', { voucherUuid: voucher.uuid });
    await expect.poll(() => proxy.log.filter(isRedeem).length).toBeGreaterThan(0);

    const started = performance.now();
    const second = await call('redeemVoucher', { voucherUuid: voucher.uuid });
    expect(performance.now() - started).toBeLessThan(200);
    expect(second).toMatchObject({ ok: false, error: { code: 'busy' } });
    expect(await first).toMatchObject({ ok: true, value: { outcome: 'redeemed' } });
    expect((await admin.findVoucher({ code: voucher.code })).data.times_redeemed).toBe(1);

    const lines = kioskLog(dataDir).filter((line) => line.call === 'redeemVoucher');
    expect(lines).toContainEqual(expect.objectContaining({ event: 'bridge.call_failed', kind: 'busy' }));
    expect(JSON.stringify(lines)).not.toContain('stack');
  });

  it('answers a redeem with no lock held with not_locked, sends nothing, and logs no stack (#20 §12)', async () => {
    const voucher = await freshVoucher();
    const sentBefore = proxy.log.filter(isRedeem).length;
    expect(await call('redeemVoucher', { voucherUuid: voucher.uuid })).toMatchObject({ ok: false, error: { code: 'not_locked' } });
    expect(proxy.log.filter(isRedeem).length).toBe(sentBefore);
    expect((await admin.findVoucher({ code: voucher.code })).data).toMatchObject({ status: 'ACTIVE', times_redeemed: 0 });
    const lines = kioskLog(dataDir).filter((line) => line.call === 'redeemVoucher' && line.kind === 'not_locked');
    expect(lines).toHaveLength(1);
    expect(JSON.stringify(lines)).not.toContain('stack');
  });

  it('gives a slow platform one time budget per shopper action, across all requests and retries', async () => {
    const voucher = await freshVoucher();
    // Nothing answers: each request would wait the client's 10 s, and a GET is tried three times.
    proxy.decide = () => 'drop_request';
    for (const [name, input] of [
      ['lookupScan', { value: voucher.code }],
      ['lockVoucher', { voucherUuid: voucher.uuid, code: voucher.code }],
    ] as const) {
      const started = performance.now();
      expect(await call(name, input)).toMatchObject({ ok: false, error: { code: 'timeout' } });
      const elapsed = performance.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(ACTION_BUDGET_MS - 50);
      expect(elapsed).toBeLessThan(ACTION_BUDGET_MS + 1_000);
    }
  });
});
