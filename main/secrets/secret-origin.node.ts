import { serialQueue } from '../../base/queue.std.ts';
import type { KioskConfig } from '../../common/config-schema.std.ts';
import type { ConfigStore } from '../config/config-store.node.ts';
import type { Logger } from '../logging/logger.std.ts';
import { bindingOf, PLATFORM_SECRET_NAMES, SECRETS_BOUND_TO, type SecretBinding, type SecretName, type SecretStore } from './secret-store.node.ts';

/**
 * Stored secrets belong to the origin they were entered for (recorded beside them in the
 * keychain): the platform's to the platform origin, the broker's password to the broker. They are
 * only ever sent to that origin, and a kiosk pointed at another origin loses them: the manager
 * enters the new one's.
 */

/**
 * `https://loyalty.example` of a base URL, `mqtts://broker.example:8883` of a broker URL (whose
 * WHATWG origin is the opaque "null"); null for none (demo, no fleet) or one that does not parse.
 */
export function originOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    if (!parsed.host) return null;
    return parsed.origin === 'null' ? `${parsed.protocol}//${parsed.host}` : parsed.origin;
  } catch {
    return null;
  }
}

/** The origin each binding's secrets are for under this config; null where none is configured. */
export type ConfiguredOrigins = Record<SecretBinding, string | null>;

export function configuredOrigins(current: Pick<KioskConfig, 'api' | 'fleet'>): ConfiguredOrigins {
  return { platform: originOf(current.api.baseUrl), broker: originOf(current.fleet.mqtt.url) };
}

/** The stored platform secrets, but only when they were stored for `origin`: nothing for any other. */
export async function storedSecretsFor(
  secrets: SecretStore,
  origin: string | null,
  /** Secrets not bound yet count as this origin's, as the kiosk binds them at its start (doctor looks ahead). */
  { unboundCounts = false } = {},
): Promise<Partial<Record<SecretName, string>>> {
  const bound = origin === null ? null : await secrets.boundOrigin('platform');
  if (origin === null || (bound !== origin && !(unboundCounts && bound === null))) return {};
  const values = await Promise.all(PLATFORM_SECRET_NAMES.map(async (name) => [name, await secrets.get(name)] as const));
  return Object.fromEntries(values.filter(([, value]) => value !== null));
}

/**
 * The broker password for the broker at `origin`: the stored one if it was stored for it (or
 * before any broker was bound: the kiosk binds it to the configured one at start). `needed`: a
 * password was removed because the broker moved, and none entered for this one yet; the kiosk
 * does not connect until one is.
 */
export async function brokerPasswordFor(secrets: SecretStore, origin: string | null): Promise<{ password: string | null; needed: boolean }> {
  if (origin === null) return { password: null, needed: false };
  const bound = await secrets.boundOrigin('broker');
  if (bound !== null && bound !== origin) return { password: null, needed: true };
  const password = await secrets.get('mqttPassword');
  return { password, needed: password === null && bound === origin };
}

/**
 * Removes a binding's stored secrets, saying whether any were there. The platform forgets its
 * origin; the broker's binding moves to `origin`, so a kiosk whose password was removed waits for
 * the new broker's instead of connecting without one.
 */
async function forgetSecrets(secrets: SecretStore, binding: SecretBinding, origin: string | null): Promise<boolean> {
  let removed = false;
  for (const name of SECRETS_BOUND_TO[binding]) removed = (await secrets.remove(name)) || removed;
  await secrets.bindOrigin(binding, binding === 'broker' ? origin : null);
  return removed;
}

const REMOVED_MESSAGES: Record<SecretBinding, string> = {
  platform: 'platform origin changed: stored secrets removed; enter them again',
  broker: 'fleet broker changed: its stored password removed; enter the password of the new broker',
};

/**
 * Stores a secret for its binding's configured origin (null: none configured yet; the next one
 * configured claims it). Secrets stored for another origin are removed first: one origin's set
 * never mixes with another's.
 */
export async function storeSecretFor(secrets: SecretStore, name: SecretName, value: string, origins: ConfiguredOrigins, logger: Logger) {
  const binding = bindingOf(name);
  const origin = origins[binding];
  const bound = await secrets.boundOrigin(binding);
  if (bound !== null && bound !== origin && (await forgetSecrets(secrets, binding, null))) {
    logger.warn(REMOVED_MESSAGES[binding], { event: 'secrets.removed', binding, from: bound, to: origin });
  }
  await secrets.set(name, value);
  if (bound !== origin) await secrets.bindOrigin(binding, origin);
}

/** What a check did: nothing to do, bound unbound secrets, removed another origin's, or could not look. */
export type SecretOriginOutcome = 'unchanged' | 'bound' | 'removed' | 'unchecked';

/**
 * Keeps each binding's stored secrets in step with the configured origin: secrets stored before
 * one was configured (or by an older version) are bound to the first one configured; another
 * origin removes them. No origin (demo mode, no fleet) leaves them as they are.
 */
export class SecretOriginGuard {
  readonly #checks = serialQueue();

  constructor(
    private readonly secrets: SecretStore,
    private readonly configured: () => ConfiguredOrigins,
    private readonly logger: Logger,
  ) {}

  /** Resolves once every check asked for so far is done (a config change may have just asked for one). */
  async settled(): Promise<void> {
    await this.#checks.idle();
  }

  /** Resolves once the secrets match the configuration as it is now; never rejects. */
  reconcile(): Promise<Record<SecretBinding, SecretOriginOutcome>> {
    return this.#checks.run(() => this.#reconcile()).catch((error: unknown) => {
      this.logger.warn('could not check the stored secrets\' origin', { reason: String(error) });
      return { platform: 'unchecked', broker: 'unchecked' } as const;
    });
  }

  async #reconcile(): Promise<Record<SecretBinding, SecretOriginOutcome>> {
    const origins = this.configured();
    return { platform: await this.#follow('platform', origins.platform), broker: await this.#follow('broker', origins.broker) };
  }

  async #follow(binding: SecretBinding, origin: string | null): Promise<SecretOriginOutcome> {
    if (origin === null) return 'unchanged';
    const bound = await this.secrets.boundOrigin(binding);
    if (bound === origin) return 'unchanged';
    if (bound === null) {
      const { stored } = await this.secrets.status();
      if (!SECRETS_BOUND_TO[binding].some((name) => stored[name])) return 'unchanged';
      await this.secrets.bindOrigin(binding, origin);
      this.logger.info('stored secrets bound to the configured origin', { binding, origin });
      return 'bound';
    }
    if (!(await forgetSecrets(this.secrets, binding, origin))) return 'unchanged';
    this.logger.warn(REMOVED_MESSAGES[binding], { event: 'secrets.removed', binding, from: bound, to: origin });
    return 'removed';
  }
}

/** The kiosk's guard: the origins read from its settings. */
export function secretOriginGuardFor(secrets: SecretStore, config: ConfigStore, logger: Logger): SecretOriginGuard {
  return new SecretOriginGuard(secrets, () => configuredOrigins(config.get()), logger);
}
