import type { KioskConfig } from '../../common/config-schema.std.ts';
import type { ConfigStore } from '../config/config-store.node.ts';
import type { Logger } from '../logging/logger.std.ts';
import type { SecretStore } from '../secrets/secret-store.node.ts';
import { originOf, storedSecretsFor } from '../secrets/secret-origin.node.ts';
import { BridgeFailure } from '../bridge/dispatcher.std.ts';
import { createLoyaltyClient, type LoyaltyClient } from './client.node.ts';
import { credentialsByScheme, type LoyaltyCredentials } from './request.std.ts';

/**
 * Which platform this kiosk talks to, and as which shop: the embedded sandbox in demo mode, the
 * configured API otherwise. The client is rebuilt when the base URL changes. Credentials come from
 * the keychain's store, which keeps them in memory until they change (a refusal by the platform
 * makes it read them again): a replaced key takes effect at the next call, and only when it was
 * stored for the configured origin.
 */
export interface PlatformConnection {
  client(): LoyaltyClient;
  /** The shop this kiosk stands in; refuses when a connected kiosk has none configured. */
  shopUuid(): string;
  credentials(): Promise<LoyaltyCredentials>;
}

/** What the connection needs of demo mode's embedded sandbox: where it is, its credentials and shops. */
export interface DemoPlatform {
  baseUrl: string;
  credentials: { api_key: string; access_token: string; personal_access_token: string };
  shops: ReadonlyArray<{ uuid: string }>;
}

export function createPlatformConnection(options: {
  config: ConfigStore;
  secrets: SecretStore;
  /** The embedded sandbox, once demo mode started it (the demo feature passes it: the platform knows no feature). */
  sandbox: () => DemoPlatform | null;
  logger: Logger;
  /** Resolves once the stored secrets follow the configured origin (a change just made may still be applied). */
  secretsSettled?: () => Promise<void>;
}): PlatformConnection {
  const { config, secrets, sandbox, logger } = options;
  const baseUrl = (current: KioskConfig) => current.api.baseUrl ?? sandbox()?.baseUrl;

  const credentials = async (): Promise<LoyaltyCredentials> => {
    const demo = config.isDemo() ? sandbox() : null;
    if (demo) return credentialsByScheme(demo.credentials);
    // Only secrets stored for the configured platform's origin: none while they belong to another.
    await options.secretsSettled?.();
    const { apiKey, accessToken, personalAccessToken } = await storedSecretsFor(secrets, originOf(config.get().api.baseUrl));
    return { apiKey, accessToken, personalAccessToken };
  };

  let built: { baseUrl: string; client: LoyaltyClient } | undefined;
  return {
    credentials,
    client() {
      const url = baseUrl(config.get());
      if (!url) throw new BridgeFailure('unavailable', 'no loyalty platform configured');
      if (built?.baseUrl !== url) {
        const client = createLoyaltyClient({ baseUrl: url, credentials, onCredentialsRefused: () => secrets.forgetReads(), logger: logger.child({ part: 'loyalty' }) });
        built = { baseUrl: url, client };
      }
      return built.client;
    },
    shopUuid() {
      const configured = config.get().api.shopUuid;
      const shop = configured ?? (config.isDemo() ? sandbox()?.shops[0]?.uuid : undefined);
      if (!shop) throw new BridgeFailure('unavailable', 'no shop configured for this kiosk');
      return shop;
    },
  };
}
