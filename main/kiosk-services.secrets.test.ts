import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../sandbox/sandbox.node.ts';
import { startKioskServices, type KioskServices } from './kiosk-services.node.ts';
import { KeytarSecretStore, SECRET_NAMES } from './secrets/secret-store.node.ts';
import { silentLogger } from './logging/logger.std.ts';
import { BridgeConnection } from './bridge/dispatcher.std.ts';

/**
 * A connected kiosk (a separately running sandbox stands in for the platform) with its credentials
 * in the real keychain: whatever the renderer asks, no answer and no file in the data folder ever
 * holds a credential.
 */
describe('secrets never leave main', () => {
  const keychainService = `loyalty-kiosk-test-${crypto.randomUUID()}`;
  const secrets = new KeytarSecretStore({ logger: silentLogger, service: keychainService });
  let platform: RunningSandbox;
  let services: KioskServices;
  let dataDir: string;
  let credentials: string[];
  const answers: unknown[] = [];
  const connection = new BridgeConnection('test');
  const call = async (name: string, input: unknown = {}) => {
    const answer = await services.dispatch(name, input, connection);
    answers.push(answer);
    return answer;
  };

  beforeAll(async () => {
    platform = await startSandbox({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'secrets-platform-')), port: 0 });
    const { api_key, access_token, personal_access_token } = platform.manifest.credentials;
    credentials = [api_key, access_token, personal_access_token];
    await secrets.set('apiKey', api_key);
    await secrets.set('accessToken', access_token);
    await secrets.set('personalAccessToken', personal_access_token);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'secrets-kiosk-'));
    fs.writeFileSync(
      path.join(dataDir, 'config.json'),
      JSON.stringify({ api: { baseUrl: platform.baseUrl, shopUuid: platform.manifest.shops[0]!.uuid } }),
    );
    services = await startKioskServices({ dataDir, version: 'test', keychainService });
  });

  afterAll(async () => {
    await services?.close();
    await platform?.close();
    for (const name of SECRET_NAMES) await secrets.remove(name).catch(() => {});
  });

  it('uses the keychain credentials against the platform', async () => {
    const sanne = platform.manifest.contacts.find((contact) => contact.email === 'sanne.devries@example.nl')!;
    await expect(call('lookupScan', { value: sanne.identifiers[0] })).resolves.toMatchObject({ ok: true, value: { kind: 'shopper' } });
  });

  it('keeps them out of every answer and every file, through successes and failures', async () => {
    const sanne = platform.manifest.contacts.find((contact) => contact.email === 'sanne.devries@example.nl')!;
    await call('getAppInfo');
    await call('getSettings');
    await call('getServiceStatus');
    await call('identifyByEmail', { email: sanne.email });
    await call('getCreditBalance', { contactUuid: sanne.uuid });
    const listed = (await call('listShopperVouchers', { contactUuid: sanne.uuid, page: 1 })) as { ok: true; value: { vouchers: Array<{ uuid: string; code: string }> } };
    const voucher = listed.value.vouchers[0]!;
    await call('checkVoucher', { voucherUuid: voucher.uuid });
    await call('lockVoucher', { voucherUuid: voucher.uuid, code: voucher.code });
    await call('lockVoucher', { voucherUuid: voucher.uuid, code: voucher.code }); // refused: already locked
    await call('redeemVoucher', { voucherUuid: voucher.uuid });
    await call('startPortalSession', { contactUuid: sanne.uuid });
    await call('lookupScan', { value: 'NOT-A-CODE' });
    await call('reportRendererError', { message: `renderer saw ${credentials[0]!.slice(0, 6)}` });

    // A wrong key: the platform refuses, and the refusal quotes nothing of the key either.
    await secrets.set('apiKey', 'fake-wrong-api-key-for-leak-test');
    const refused = await call('listShopperVouchers', { contactUuid: sanne.uuid, page: 1 });
    expect(refused).toMatchObject({ ok: false });
    await secrets.set('apiKey', credentials[0]!);

    const everything = JSON.stringify(answers) + filesUnder(dataDir).map((file) => fs.readFileSync(file, 'utf8')).join('\n');
    for (const secret of [...credentials, 'fake-wrong-api-key-for-leak-test']) expect(everything).not.toContain(secret);
    expect(filesUnder(dataDir).some((file) => file.endsWith('kiosk.log'))).toBe(true);
  });
});

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}
