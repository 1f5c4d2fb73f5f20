import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/sandbox.node.ts';
import { ConfigStore } from '../config/config-store.node.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { createLoyaltyClient } from '../loyalty/client.node.ts';
import type { PlatformConnection } from '../loyalty/platform-connection.node.ts';
import { ServiceHealth } from '../loyalty/service-health.node.ts';
import { createShopperHandlers } from './shopper-service.node.ts';

const SKIPPED = 'voucher validity check skipped: no personal access token configured';

/**
 * The validity check needs the personal access token. A demo kiosk always has one (its sandbox's),
 * so a connected kiosk without one is built here: the shopper handlers against a real sandbox.
 */
describe('checkVoucher with and without a personal access token', () => {
  let sandbox: RunningSandbox;
  const dirs: string[] = [];

  beforeAll(async () => {
    dirs.push(await mkdtemp(join(tmpdir(), 'shopper-service-sandbox-')), await mkdtemp(join(tmpdir(), 'shopper-service-kiosk-')));
    sandbox = await startSandbox({ dataDir: dirs[0]!, port: 0 });
  });
  afterAll(async () => {
    await sandbox?.close();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  /** The handlers of a kiosk whose keychain holds the API key and access token, and the PAT only when `withPat`. */
  function kioskHandlers(withPat: boolean) {
    const { api_key, access_token, personal_access_token } = sandbox.manifest.credentials;
    const credentials = async () => ({ apiKey: api_key, accessToken: access_token, personalAccessToken: withPat ? personal_access_token : undefined });
    const requested: string[] = [];
    const recordingFetch: typeof fetch = (input, init) => {
      requested.push(new URL(String(input)).pathname);
      return fetch(input, init);
    };
    const client = createLoyaltyClient({ baseUrl: sandbox.baseUrl, credentials, fetch: recordingFetch });
    const connection: PlatformConnection = { client: () => client, shopUuid: () => sandbox.manifest.shops[0]!.uuid, credentials };
    const health = new ServiceHealth({ probe: async () => undefined, onChange: () => {}, logger: silentLogger });
    const logger = { ...silentLogger, info: vi.fn() };
    const handlers = createShopperHandlers({ connection, health, logger, config: new ConfigStore({ dataDir: dirs[1]!, logger: silentLogger }) });
    return { handlers, logger, requested };
  }

  const koffie24 = () => sandbox.manifest.vouchers.find((voucher) => voucher.code === 'KOFFIE24')!;

  it('without one: skipped with a logged notice, and the platform is not asked', async () => {
    const { handlers, logger, requested } = kioskHandlers(false);
    await expect(handlers.checkVoucher({ voucherUuid: koffie24().uuid })).resolves.toEqual({ checked: false });
    expect(logger.info).toHaveBeenCalledWith(SKIPPED);
    expect(requested).toEqual([]);
  });

  it('with one: the platform checks the voucher, and nothing is said about skipping', async () => {
    const { handlers, logger, requested } = kioskHandlers(true);
    await expect(handlers.checkVoucher({ voucherUuid: koffie24().uuid })).resolves.toEqual({ checked: true, valid: true, platformCode: null });
    expect(logger.info).not.toHaveBeenCalledWith(SKIPPED);
    expect(requested).toEqual([`/api/v3/oauth/clients/vouchers/${koffie24().uuid}/validate`]);
  });
});
