import { createLoyaltyClient } from '../loyalty/client.node.ts';
import { LoyaltyError } from '../loyalty/errors.std.ts';
import type { SecretStore } from '../secrets/secret-store.node.ts';
import { originOf, storedSecretsFor, type SecretOriginGuard } from '../secrets/secret-origin.node.ts';
import { isLoopbackUrl } from '../../common/config-schema.std.ts';
import type { ConnectionCheck } from '../../common/manager-views.std.ts';
import { checkShop } from './shop-check.node.ts';

/** The wizard's check of a platform address, with the typed key or the one stored for that origin. */
export async function checkConnection(
  { secrets, secretOrigin }: { secrets: SecretStore; secretOrigin: SecretOriginGuard },
  { baseUrl, apiKey, shopUuid }: { baseUrl: string; apiKey?: string; shopUuid?: string },
): Promise<ConnectionCheck> {
  // A stored key goes only to the origin it was stored for, never to one being tried out.
  await secretOrigin.settled();
  const key = apiKey ?? (await storedSecretsFor(secrets, originOf(baseUrl))).apiKey;
  const client = createLoyaltyClient({ baseUrl, credentials: async () => ({ apiKey: key }), retries: 0, timeoutMs: 8_000 });
  const checks: ConnectionCheck['checks'] = [];
  const check = async (name: string, run: () => Promise<string>) => {
    try {
      checks.push({ name, ok: true, detail: await run() });
    } catch (error) {
      if (error instanceof LoyaltyError) checks.push({ name, ok: false, detail: `${error.kind}: ${error.message}`, problem: error.kind });
      else checks.push({ name, ok: false, detail: String(error) });
    }
  };
  const loopback = isLoopbackUrl(new URL(baseUrl));
  const secure = loopback || baseUrl.startsWith('https://');
  checks.push({ name: 'https', ok: secure, detail: loopback ? 'loopback' : new URL(baseUrl).protocol, ...(secure ? {} : { problem: 'insecure' as const }) });
  await check('vouchers', async () => `${(await client.listVouchers({ limit: 1 })).meta.total} vouchers`);
  await check('reward attributes', async () => `${(await client.listRewardAttributes()).data.length} attributes`);
  if (shopUuid) await check('shop', () => checkShop(client, shopUuid));
  return { ok: checks.every((item) => item.ok), checks };
}
