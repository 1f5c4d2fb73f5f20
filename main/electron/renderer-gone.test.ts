import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOKE_CHANNEL } from '../../common/contract.std.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/sandbox.node.ts';
import { startKioskServices, type KioskServices } from '../kiosk-services.node.ts';
import { createLoyaltyClient, type LoyaltyClient } from '../loyalty/client.node.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { KeytarSecretStore, SECRET_NAMES } from '../secrets/secret-store.node.ts';
import { registerBridgeIpc } from './bridge-ipc.main.ts';
import { hardenWebContents } from './kiosk-window.main.ts';
import { FakeIpcMain, FakeWebContents, type SenderFrame } from './fake-electron.test-support.ts';

/**
 * A renderer that crashes in the middle of a visit, through the fake Electron (IPC, web contents)
 * and the real services, connected to a real sandbox over HTTP. Run under test/with-keyring.sh.
 */

const appTopFrame: SenderFrame = { url: 'app://kiosk/index.html', parent: null };

describe('Electron: a renderer gone during a visit', () => {
  const keychainService = `loyalty-kiosk-test-${crypto.randomUUID()}`;
  const secrets = new KeytarSecretStore({ logger: silentLogger, service: keychainService });
  let platform: RunningSandbox;
  let admin: LoyaltyClient;
  let services: KioskServices;

  beforeAll(async () => {
    platform = await startSandbox({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'renderer-gone-platform-')), port: 0 });
    const { api_key, access_token, personal_access_token } = platform.manifest.credentials;
    await secrets.set('apiKey', api_key);
    await secrets.set('accessToken', access_token);
    await secrets.set('personalAccessToken', personal_access_token);
    admin = createLoyaltyClient({ baseUrl: platform.baseUrl, credentials: async () => ({ apiKey: api_key }) });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'renderer-gone-kiosk-'));
    fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ api: { baseUrl: platform.baseUrl, shopUuid: platform.manifest.shops[0]!.uuid } }));
    services = await startKioskServices({ dataDir, version: 'test', keychainService, serviceRetryMs: 60_000 });
  });
  afterAll(async () => {
    await services?.close();
    await platform?.close();
    for (const name of SECRET_NAMES) await secrets.remove(name).catch(() => {});
  });

  /** The kiosk window as app.main.ts wires it: hardened, its calls over the bridge IPC. */
  function kioskWindow() {
    const ipcMain = new FakeIpcMain();
    registerBridgeIpc(ipcMain.electron, services);
    const contents = new FakeWebContents();
    hardenWebContents(contents.electron, { dev: false, logger: silentLogger });
    const call = async (name: string, input: unknown = {}) => ipcMain.invokeFrom(contents, INVOKE_CHANNEL, appTopFrame, name, input);
    return { contents, call };
  }

  async function freshVoucher() {
    const promotion_uuid = platform.manifest.promotions[0]!.uuid;
    const contact_uuid = platform.manifest.contacts[0]!.uuid;
    return (await admin.createVoucher({ promotion_uuid, contact_uuid, total_redemptions_allowed: 1 })).data;
  }

  it('settles the held lock at the platform, reloads, and tells the reloaded page once that the visit was cut short', async () => {
    const { contents, call } = kioskWindow();
    const voucher = await freshVoucher();
    await expect(call('screenStarted')).resolves.toEqual({ ok: true, value: { visitInterrupted: false } });
    await call('reportScreen', { screen: 'visit' });
    await expect(call('lockVoucher', { voucherUuid: voucher.uuid, code: voucher.code })).resolves.toMatchObject({ ok: true });
    expect((await admin.findVoucher({ code: voucher.code })).data.status).toBe('LOCKED');

    contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 });
    expect(contents.reload).toHaveBeenCalledOnce();
    // The reloaded page's first question is answered once the lock is settled.
    await expect(call('screenStarted')).resolves.toEqual({ ok: true, value: { visitInterrupted: true } });
    expect((await admin.findVoucher({ code: voucher.code })).data.status).toBe('ACTIVE');
    expect(services.activity.locksHeld()).toBe(0);
    await expect(call('screenStarted')).resolves.toEqual({ ok: true, value: { visitInterrupted: false } });
  });

  it('a hung renderer (crashed on purpose, then reloaded) is the same: its lock is settled', async () => {
    const { contents, call } = kioskWindow();
    const voucher = await freshVoucher();
    await call('reportScreen', { screen: 'visit' });
    await call('lockVoucher', { voucherUuid: voucher.uuid, code: voucher.code });
    contents.emit('unresponsive');
    // What Electron does once forcefullyCrashRenderer has killed the renderer.
    contents.emit('render-process-gone', {}, { reason: 'killed', exitCode: 9 });
    await expect(call('screenStarted')).resolves.toEqual({ ok: true, value: { visitInterrupted: true } });
    expect((await admin.findVoucher({ code: voucher.code })).data.status).toBe('ACTIVE');
  });

  it('a renderer gone on the attract screen is only reloaded: nobody is told anything', async () => {
    const { contents, call } = kioskWindow();
    await call('reportScreen', { screen: 'attract' });
    contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 });
    expect(contents.reload).toHaveBeenCalledOnce();
    await expect(call('screenStarted')).resolves.toEqual({ ok: true, value: { visitInterrupted: false } });
  });
});
