import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import NodeWebSocket from 'ws';
import { ConfigStore } from '../../main/config/config-store.node.ts';
import { createLoyaltyClient, type LoyaltyClient } from '../../main/loyalty/client.node.ts';
import { silentLogger } from '../../main/logging/logger.std.ts';
import { KeytarSecretStore, SECRET_NAMES } from '../../main/secrets/secret-store.node.ts';
import { BROWSER_BRIDGE_PATH } from '../../common/browser-bridge-protocol.std.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/sandbox.node.ts';
import { startBrowserHostProcess, type BrowserHostProcess } from '../support/browser-host-process.node.ts';
import { startFaultProxy, type FaultProxy, type ProxiedRequest, type Stage } from '../support/fault-proxy.node.ts';
import { kioskEvents } from '../support/kiosk-journey.node.ts';
import { dataFiles } from '../../main/paths/data-files.node.ts';

/**
 * Real SIGKILLs of a real kiosk process (the browser host, as shipped, driven over its bridge
 * WebSocket: no Chromium) at each step of a redemption, with the platform (an in-process
 * sandbox) behind a loopback fault proxy that holds the request while the kiosk dies. A new
 * process then starts on the same data folder and must leave the voucher as the platform says:
 * never redeemed twice, never left locked by a lock it could release.
 * (The 200 randomised runs simulate the kill in-process: test/faults/redemption-faults.test.ts.)
 */


function journalEntries(dataDir: string): Array<{ phase: string }> {
  const file = dataFiles(dataDir).voucherLocks;
  if (!fs.existsSync(file)) return [];
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { entries: Array<{ phase: string }> }).entries;
}

/** The attempts the kiosk's ledger holds a `redeemed` row of, for the voucher `code` (read while the kiosk runs, as WAL allows). */
function ledgerRedemptions(dataDir: string, code: string): string[] {
  const db = new Database(dataFiles(dataDir).ledger, { readonly: true });
  try {
    return (db.prepare("SELECT attempt_id FROM events WHERE kind = 'redeemed' AND voucher_code = ?").all(code) as Array<{ attempt_id: string }>).map((row) => row.attempt_id);
  } finally {
    db.close();
  }
}

/** The kiosk's bridge from Node, as its page would use it; calls left unanswered by a kill never settle. */
async function openBridge(host: BrowserHostProcess) {
  const token = new URL(host.url).searchParams.get('token')!;
  const socket = new NodeWebSocket(`${host.origin.replace('http', 'ws')}${BROWSER_BRIDGE_PATH}?token=${token}`, { origin: host.origin });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const pending = new Map<number, (result: unknown) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  socket.on('error', () => {});
  let nextId = 1;
  return {
    call(call: string, input: unknown): Promise<unknown> {
      const id = nextId++;
      socket.send(JSON.stringify({ id, call, input }));
      return new Promise((resolve) => pending.set(id, resolve));
    },
  };
}

const isLock = (request: ProxiedRequest) => request.method === 'POST' && request.path.endsWith('/lock');
const isRedeem = (request: ProxiedRequest) => request.path.endsWith('/vouchers/redeem');
const isFind = (request: ProxiedRequest) => request.path.includes('/vouchers/find');

describe('a kiosk process killed at each step of a redemption', () => {
  const keychainService = `loyalty-kiosk-e2e-sigkill-${process.pid}`;
  const secrets = new KeytarSecretStore({ logger: silentLogger, service: keychainService });
  const hosts: BrowserHostProcess[] = [];
  let sandbox: RunningSandbox;
  let proxy: FaultProxy;
  let admin: LoyaltyClient;

  beforeAll(async () => {
    sandbox = await startSandbox({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'sigkill-platform-')), port: 0 });
    proxy = await startFaultProxy(sandbox.baseUrl);
    const { api_key, access_token, personal_access_token } = sandbox.manifest.credentials;
    await secrets.set('apiKey', api_key);
    await secrets.set('accessToken', access_token);
    await secrets.set('personalAccessToken', personal_access_token);
    admin = createLoyaltyClient({ baseUrl: sandbox.baseUrl, credentials: async () => ({ apiKey: api_key }) });
  });
  afterEach(async () => {
    proxy.decide = () => undefined;
    proxy.onStage = () => {};
    for (const host of hosts.splice(0)) await host.stop('SIGKILL');
  });
  afterAll(async () => {
    for (const name of SECRET_NAMES) await secrets.remove(name).catch(() => {});
    await proxy?.close();
    await sandbox?.close();
  });

  async function start(dataDir: string) {
    const host = await startBrowserHostProcess({ dataDir, env: { KIOSK_KEYCHAIN_SERVICE: keychainService } });
    hosts.push(host);
    return host;
  }

  function connectedDataDir() {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigkill-kiosk-'));
    const config = new ConfigStore({ dataDir, logger: silentLogger });
    config.set('api.baseUrl', proxy.baseUrl);
    config.set('api.shopUuid', sandbox.manifest.shops[0]!.uuid);
    return dataDir;
  }

  async function freshVoucher() {
    const { promotions, contacts } = sandbox.manifest;
    // Two uses: a second redemption would go through, so a double one would show.
    return (await admin.createVoucher({ promotion_uuid: promotions[0]!.uuid, contact_uuid: contacts[0]!.uuid, total_redemptions_allowed: 2 })).data;
  }

  /** SIGKILLs `host` the first time a request `matches` reaches `stage`; the proxy goes on only once it is dead. */
  function killAt(host: BrowserHostProcess, stage: Stage, matches: (request: ProxiedRequest) => boolean) {
    let killed = false;
    proxy.onStage = async (reached, request) => {
      if (killed || reached !== stage || !matches(request)) return;
      killed = true;
      await host.stop('SIGKILL');
    };
    return () => killed;
  }

  const settledLog = (dataDir: string) => kioskEvents(dataDir, 'voucher.locks_settled')[0]?.settled;

  it.each([
    // After the lock is journaled: the Find that follows the journal write is where it dies.
    ['lock_journaled', 'released', 'ACTIVE', 0],
    // The redeem never reaches the platform: the lock is released, nothing redeemed.
    ['redeem_sent', 'released', 'ACTIVE', 0],
    // The platform redeemed, the kiosk died before the answer: found, reported, never repeated.
    ['redeem_landed', 'redeemed', 'ACTIVE', 1],
    // The answer reached the kiosk, which died at once: one redemption, whatever the journal kept.
    ['answer', 'redeemed', 'ACTIVE', 1],
  ] as const)('killed %s: the restart settles it (%s) and the platform agrees', async (step, outcome, status, timesRedeemed) => {
    const dataDir = connectedDataDir();
    const voucher = await freshVoucher();
    const first = await start(dataDir);
    const bridge = await openBridge(first);
    let locked = false;
    const killed =
      step === 'lock_journaled'
        ? killAt(first, 'sent', (request) => locked && isFind(request))
        : killAt(first, step === 'redeem_sent' ? 'sent' : step === 'redeem_landed' ? 'landed' : 'answered', isRedeem);
    proxy.decide = (request) => {
      if (isLock(request)) locked = true;
      return step === 'redeem_sent' && isRedeem(request) ? 'drop_request' : undefined;
    };

    const lockAnswer = bridge.call('lockVoucher', { voucherUuid: voucher.uuid, code: voucher.code });
    if (step !== 'lock_journaled') {
      expect(await lockAnswer).toMatchObject({ ok: true });
      void bridge.call('redeemVoucher', { voucherUuid: voucher.uuid });
    }
    await expect.poll(killed, { timeout: 10_000 }).toBe(true);
    await first.exitCode;
    proxy.decide = () => undefined;

    // What the killed process left to settle (after the answer, the journal may already have let it go).
    const leftToSettle = journalEntries(dataDir).length;
    const second = await start(dataDir);
    await expect.poll(() => journalEntries(dataDir), { timeout: 10_000 }).toEqual([]);
    const found = (await admin.findVoucher({ code: voucher.code })).data;
    expect(found).toMatchObject({ status, times_redeemed: timesRedeemed });
    expect(proxy.log.filter((request) => isRedeem(request) && request.forwarded && request.body.includes(voucher.code))).toHaveLength(timesRedeemed);
    // The journal is emptied as each lock is settled; the log line follows once all are.
    if (leftToSettle > 0) await expect.poll(() => settledLog(dataDir)).toEqual([{ voucherUuid: voucher.uuid, outcome }]);
    else expect(step).toBe('answer');

    // The restarted kiosk serves on: the voucher's next use is one more redemption, exactly.
    const again = await openBridge(second);
    expect(await again.call('lockVoucher', { voucherUuid: voucher.uuid, code: voucher.code })).toMatchObject({ ok: true });
    expect(await again.call('redeemVoucher', { voucherUuid: voucher.uuid })).toMatchObject({ ok: true, value: { outcome: 'redeemed' } });
    expect((await admin.findVoucher({ code: voucher.code })).data.times_redeemed).toBe(timesRedeemed + 1);
    // The ledger: one redeemed row per redemption that landed, each its own attempt, whatever the kill.
    const recorded = ledgerRedemptions(dataDir, voucher.code);
    expect(recorded).toHaveLength(timesRedeemed + 1);
    expect(new Set(recorded).size).toBe(recorded.length);
  });

  // Last: it moves the sandbox clock on by an hour.
  it('killed lock_sent: the intent survives, the voucher is not locked again until the platform frees it', async () => {
    const dataDir = connectedDataDir();
    const voucher = await freshVoucher();
    const first = await start(dataDir);
    const bridge = await openBridge(first);
    const killed = killAt(first, 'sent', isLock);
    void bridge.call('lockVoucher', { voucherUuid: voucher.uuid, code: voucher.code });
    await expect.poll(killed, { timeout: 10_000 }).toBe(true);
    await first.exitCode;
    // The Lock reached the platform after the kiosk died: a lock whose key nobody has.
    await expect.poll(async () => (await admin.findVoucher({ code: voucher.code })).data.status).toBe('LOCKED');
    expect(journalEntries(dataDir)).toEqual([expect.objectContaining({ phase: 'locking' })]);

    const second = await start(dataDir);
    await expect.poll(() => settledLog(dataDir), { timeout: 10_000 }).toEqual([{ voucherUuid: voucher.uuid, outcome: 'kept' }]);
    expect(journalEntries(dataDir)).toEqual([expect.objectContaining({ phase: 'locking' })]);
    const again = await openBridge(second);
    expect(await again.call('lockVoucher', { voucherUuid: voucher.uuid, code: voucher.code })).toMatchObject({
      ok: false,
      error: { code: 'conflict', platformCode: 80017 },
    });

    // The platform's own release, an hour on: the intent is settled and the voucher serves again, once.
    const moved = await fetch(`${sandbox.baseUrl}/_sandbox/clock`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.manifest.credentials.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ advance_seconds: 60 * 60 + 1 }),
    });
    expect(moved.status).toBe(200);
    expect(await again.call('lockVoucher', { voucherUuid: voucher.uuid, code: voucher.code })).toMatchObject({ ok: true });
    expect(await again.call('redeemVoucher', { voucherUuid: voucher.uuid })).toMatchObject({ ok: true, value: { outcome: 'redeemed' } });
    expect((await admin.findVoucher({ code: voucher.code })).data).toMatchObject({ times_redeemed: 1 });
    expect(journalEntries(dataDir)).toEqual([]);
    expect(ledgerRedemptions(dataDir, voucher.code)).toHaveLength(1);
  });
});
