import type { Logger } from '../logging/logger.std.ts';
import { PLATFORM_SECRET_NAMES, type SecretName, type SecretStore } from './secret-store.node.ts';

/**
 * Stored platform secrets belong to the platform origin they were entered for (recorded beside them in the
 * keychain). They are only ever sent to that origin, and a kiosk pointed at another origin loses
 * them: the manager enters the new platform's secrets.
 */

/** `https://loyalty.example` of a base URL; null for none (demo) or one that does not parse. */
export function originOf(baseUrl: string | null | undefined): string | null {
  if (!baseUrl) return null;
  try {
    return new URL(baseUrl).origin;
  } catch {
    return null;
  }
}

/** The stored secrets, but only when they were stored for `origin`: nothing for any other. */
export async function storedSecretsFor(
  secrets: SecretStore,
  origin: string | null,
  /** Secrets not bound yet count as this origin's, as the kiosk binds them at its start (doctor looks ahead). */
  { unboundCounts = false } = {},
): Promise<Partial<Record<SecretName, string>>> {
  const bound = origin === null ? null : await secrets.boundOrigin();
  if (origin === null || (bound !== origin && !(unboundCounts && bound === null))) return {};
  const values = await Promise.all(PLATFORM_SECRET_NAMES.map(async (name) => [name, await secrets.get(name)] as const));
  return Object.fromEntries(values.filter(([, value]) => value !== null));
}

/** Removes every stored platform secret and the origin they were bound to (the broker's password is no platform's). */
async function forgetSecrets(secrets: SecretStore) {
  for (const name of PLATFORM_SECRET_NAMES) await secrets.remove(name);
  await secrets.bindOrigin(null);
}

/**
 * Stores a secret for `origin` (null: no platform configured yet; the next one configured claims
 * it). Secrets stored for another origin are removed first: one origin's set never mixes with another's.
 */
export async function storeSecretFor(secrets: SecretStore, name: SecretName, value: string, origin: string | null, logger: Logger) {
  if (!isPlatformSecret(name)) return secrets.set(name, value);
  const bound = await secrets.boundOrigin();
  if (bound !== null && bound !== origin) {
    await forgetSecrets(secrets);
    logger.warn('stored secrets removed: they were for another platform origin', { from: bound, to: origin });
  }
  await secrets.set(name, value);
  if (origin !== null && bound !== origin) await secrets.bindOrigin(origin);
}

function isPlatformSecret(name: SecretName): boolean {
  return (PLATFORM_SECRET_NAMES as readonly string[]).includes(name);
}

/**
 * Keeps the stored secrets' origin in step with the configured platform: secrets stored before a
 * platform was configured (or by an older version) are bound to the first one configured; a
 * platform at another origin removes them. Demo mode (no base URL) leaves them as they are.
 */
/** What a check did: nothing to do, bound unbound secrets, removed another origin's, or could not look. */
export type SecretOriginOutcome = 'unchanged' | 'bound' | 'removed' | 'unchecked';

export class SecretOriginGuard {
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly secrets: SecretStore,
    private readonly configuredOrigin: () => string | null,
    private readonly logger: Logger,
  ) {}

  /** Resolves once every check asked for so far is done (a config change may have just asked for one). */
  async settled(): Promise<void> {
    await this.#queue;
  }

  /** Resolves once the secrets match the configuration as it is now; never rejects. */
  reconcile(): Promise<SecretOriginOutcome> {
    const next = this.#queue.then(
      () => this.#reconcile(),
      () => this.#reconcile(),
    );
    this.#queue = next.catch(() => undefined);
    return next.catch((error: unknown) => {
      this.logger.warn('could not check the stored secrets\' origin', { reason: String(error) });
      return 'unchecked' as const;
    });
  }

  async #reconcile(): Promise<SecretOriginOutcome> {
    const origin = this.configuredOrigin();
    if (origin === null) return 'unchanged';
    const bound = await this.secrets.boundOrigin();
    if (bound === origin) return 'unchanged';
    if (bound === null) {
      const { stored } = await this.secrets.status();
      if (!PLATFORM_SECRET_NAMES.some((name) => stored[name])) return 'unchanged';
      await this.secrets.bindOrigin(origin);
      this.logger.info('stored secrets bound to the configured platform origin', { origin });
      return 'bound';
    }
    await forgetSecrets(this.secrets);
    this.logger.warn('platform origin changed: stored secrets removed; enter them again', { from: bound, to: origin });
    return 'removed';
  }
}
