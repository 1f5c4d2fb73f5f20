import path from 'node:path';
import { serialQueue } from '../../base/queue.std.ts';
import type { Logger } from '../logging/logger.std.ts';
import { dataFiles } from '../paths/data-files.node.ts';
import { SecretCache } from './secret-cache.node.ts';

/** The three credentials the platform issues: bound to the platform origin they were entered for. */
export const PLATFORM_SECRET_NAMES = ['apiKey', 'accessToken', 'personalAccessToken'] as const;
/** Every secret, the fleet broker's password too; all live only in the OS keychain. */
export const SECRET_NAMES = [...PLATFORM_SECRET_NAMES, 'mqttPassword'] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

/**
 * Each secret belongs to one origin, recorded beside it: the platform's three to the platform
 * origin (`api.baseUrl`), the broker's password to the broker (`fleet.mqtt.url`).
 */
export const SECRETS_BOUND_TO = {
  platform: PLATFORM_SECRET_NAMES,
  broker: ['mqttPassword'],
} as const satisfies Record<string, readonly SecretName[]>;
export type SecretBinding = keyof typeof SECRETS_BOUND_TO;

/** The binding `name` belongs to. */
export function bindingOf(name: SecretName): SecretBinding {
  return (Object.keys(SECRETS_BOUND_TO) as SecretBinding[]).find((binding) => (SECRETS_BOUND_TO[binding] as readonly SecretName[]).includes(name))!;
}

export interface SecretStatus {
  keychain: 'available' | 'unavailable';
  /** Why the keychain cannot be used, in words an IT admin can act on. */
  reason?: string;
  stored: Record<SecretName, boolean>;
}

export interface SecretStore {
  /** The keychain service the secrets are kept under: the kiosk's own (see kioskKeychain). */
  readonly service: string;
  get(name: SecretName): Promise<string | null>;
  set(name: SecretName, value: string): Promise<void>;
  remove(name: SecretName): Promise<boolean>;
  status(): Promise<SecretStatus>;
  /** The origin the binding's secrets were entered for, or null when none is recorded. */
  boundOrigin(binding: SecretBinding): Promise<string | null>;
  /** Records the origin the binding's secrets belong to (beside them, in the keychain); null forgets it. */
  bindOrigin(binding: SecretBinding, origin: string | null): Promise<void>;
  /** Reads the keychain afresh from now on: what was read was refused (changed behind the kiosk's back). */
  forgetReads(): void;
}

export class KeychainUnavailableError extends Error {
  override readonly name = 'KeychainUnavailableError';
}

/** The subset of keytar this store uses, so tests can point it at a second service name. */
interface KeytarApi {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>;
}

const ACCOUNTS: Record<SecretName, string> = {
  apiKey: 'api-key',
  accessToken: 'access-token',
  personalAccessToken: 'personal-access-token',
  mqttPassword: 'mqtt-password',
};

/** Not secrets, but kept beside them so a binding cannot outlive or miss the secrets it guards. */
const ORIGIN_ACCOUNTS: Record<SecretBinding, string> = { platform: 'platform-origin', broker: 'broker-origin' };

const UNAVAILABLE_HINT =
  'No OS keychain is reachable. On Linux the kiosk needs a running, unlocked Secret Service ' +
  '(gnome-keyring or KWallet) on the session D-Bus; on Windows and macOS the system keychain. ' +
  'Secrets are never written to a plain file instead.';

/** Keychain operations of this process, one after the other (see KeytarSecretStore.#call). */
const keychainQueue = serialQueue();

/** A keychain that does not answer within this time counts as unreachable, not as a hang. */
const KEYCHAIN_TIMEOUT_MS = 5_000;

/** Where older versions kept every kiosk's secrets on a machine: one name, shared. */
export const SHARED_KEYCHAIN_SERVICE = 'loyalty-kiosk';

/**
 * The keychain service of the kiosk on `dataDir`: its own (`loyalty-kiosk:<absolute data folder>`),
 * so two kiosks on one machine never share or replace a secret; it takes over what an older version
 * stored under the shared name. `override` (KIOSK_KEYCHAIN_SERVICE) is used as it is.
 */
export function kioskKeychain(dataDir: string, override?: string): Pick<KeytarSecretStoreOptions, 'service' | 'adoptFrom' | 'changeMarker'> {
  const changeMarker = dataFiles(dataDir).secretsChanged;
  if (override) return { service: override, changeMarker };
  return { service: `${SHARED_KEYCHAIN_SERVICE}:${path.resolve(dataDir)}`, adoptFrom: SHARED_KEYCHAIN_SERVICE, changeMarker };
}

export interface KeytarSecretStoreOptions {
  logger: Logger;
  service: string;
  /**
   * A service whose entries this store takes over (moved, not copied) before its first use, each
   * unless it holds that entry itself: the first kiosk to start after an upgrade keeps its secrets.
   */
  adoptFrom?: string;
  /** Told every secret read or written, so the log redactor can strip it from any line. */
  onSecretSeen?: (value: string) => void;
  /** The file that tells of a change made by another process: with it, reads are kept in memory (SecretCache). */
  changeMarker?: string;
}

export class KeytarSecretStore implements SecretStore {
  readonly #service: string;
  readonly #cache: SecretCache;
  #keytar: Promise<KeytarApi> | undefined;
  #adopted = false;

  constructor(private readonly options: KeytarSecretStoreOptions) {
    this.#service = options.service;
    this.#cache = new SecretCache(options.service, options.changeMarker);
  }

  get service(): string {
    return this.#service;
  }

  async get(name: SecretName): Promise<string | null> {
    const value = await this.#cache.read(ACCOUNTS[name], () => this.#call((keytar) => keytar.getPassword(this.#service, ACCOUNTS[name])));
    if (value) this.options.onSecretSeen?.(value);
    return value;
  }

  async set(name: SecretName, value: string): Promise<void> {
    const trimmed = value.trim();
    if (!trimmed) throw new Error(`${name} must not be empty`);
    this.options.onSecretSeen?.(trimmed);
    await this.#write((keytar) => keytar.setPassword(this.#service, ACCOUNTS[name], trimmed));
    this.options.logger.info('secret stored in the keychain', { name });
  }

  async remove(name: SecretName): Promise<boolean> {
    const removed = await this.#write((keytar) => keytar.deletePassword(this.#service, ACCOUNTS[name]));
    if (removed) this.options.logger.info('secret removed from the keychain', { name });
    return removed;
  }

  async boundOrigin(binding: SecretBinding): Promise<string | null> {
    const account = ORIGIN_ACCOUNTS[binding];
    return this.#cache.read(account, () => this.#call((keytar) => keytar.getPassword(this.#service, account)));
  }

  async bindOrigin(binding: SecretBinding, origin: string | null): Promise<void> {
    const account = ORIGIN_ACCOUNTS[binding];
    if (origin === null) await this.#write((keytar) => keytar.deletePassword(this.#service, account));
    else await this.#write((keytar) => keytar.setPassword(this.#service, account, origin));
  }

  forgetReads(): void {
    this.#cache.forget();
  }

  async status(): Promise<SecretStatus> {
    const stored = Object.fromEntries(SECRET_NAMES.map((name) => [name, false])) as Record<SecretName, boolean>;
    try {
      const found = await this.#call((keytar) => keytar.findCredentials(this.#service));
      for (const name of SECRET_NAMES) stored[name] = found.some((entry) => entry.account === ACCOUNTS[name]);
      return { keychain: 'available', stored };
    } catch (error) {
      return { keychain: 'unavailable', reason: (error as Error).message, stored };
    }
  }

  /**
   * One keychain operation at a time in the whole process (every store shares the queue): libsecret
   * reading an item another thread is deleting hands keytar a null value, which takes the process down.
   */
  #call<T>(operation: (keytar: KeytarApi) => Promise<T>): Promise<T> {
    return keychainQueue.run(async () => {
      await this.#adoptOnce();
      return this.#callNow(operation);
    });
  }

  /** A keychain change: told to the cache even when the write failed halfway (it may have landed). */
  async #write<T>(operation: (keytar: KeytarApi) => Promise<T>): Promise<T> {
    try {
      return await this.#call(operation);
    } finally {
      this.#cache.changed();
    }
  }

  /** Takes over `adoptFrom`'s entries, once (inside the queue: nothing reads in between). */
  async #adoptOnce(): Promise<void> {
    const from = this.options.adoptFrom;
    if (this.#adopted || !from) return;
    const found = await this.#callNow((keytar) => keytar.findCredentials(from));
    const own = new Set((found.length > 0 ? await this.#callNow((keytar) => keytar.findCredentials(this.#service)) : []).map((entry) => entry.account));
    for (const { account, password } of found) {
      this.options.onSecretSeen?.(password);
      if (!own.has(account)) await this.#callNow((keytar) => keytar.setPassword(this.#service, account, password));
      await this.#callNow((keytar) => keytar.deletePassword(from, account));
    }
    this.#adopted = true;
    if (found.length > 0) {
      this.#cache.changed();
      this.options.logger.info("secrets moved from the keychain's shared entry to this kiosk's own", { from, to: this.#service, accounts: found.map((entry) => entry.account) });
    }
  }

  async #callNow<T>(operation: (keytar: KeytarApi) => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const keytar = await (this.#keytar ??= loadKeytar());
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('the keychain did not answer')), KEYCHAIN_TIMEOUT_MS);
      });
      return await Promise.race([operation(keytar), timeout]);
    } catch (error) {
      this.options.logger.warn('keychain unavailable', { reason: String(error) });
      throw new KeychainUnavailableError(UNAVAILABLE_HINT);
    } finally {
      clearTimeout(timer);
    }
  }
}

async function loadKeytar(): Promise<KeytarApi> {
  const module = (await import('keytar')) as { default?: KeytarApi } & KeytarApi;
  return module.default ?? module;
}
