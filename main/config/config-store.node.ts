import fs from 'node:fs';
import path from 'node:path';
import Conf from 'conf';
import { z } from 'zod';
import type { Logger } from '../logging/logger.std.ts';
import { readDotted, withDotted } from '../../preload/dotted-keys.std.ts';
import { candidateValues, isConfigKey } from './config-keys.std.ts';
import { CONFIG_SCHEMA_VERSION, defaultConfig, KioskConfig } from '../../preload/config-schema.std.ts';
import { migrateConfig, type ConfigMigrations, configMigrations } from './config-migrations.std.ts';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export interface ConfigStoreOptions {
  dataDir: string;
  logger: Logger;
  migrations?: ConfigMigrations;
  /** Keys a provisioning file fixes (dotted key → value): applied over the file, refused to every writer. */
  locked?: Record<string, unknown>;
}

type Listener = (config: KioskConfig) => void;

/**
 * The kiosk's settings file (`config.json` in the data folder). Writes are atomic (conf), every
 * value is checked against the one schema, and a file that cannot be read is moved aside so the
 * kiosk starts on defaults instead of crashing.
 */
export class ConfigStore {
  readonly path: string;
  #conf: Conf<Record<string, unknown>>;
  #config: KioskConfig;
  #locked: Record<string, unknown>;
  #listeners = new Set<Listener>();

  constructor(private readonly options: ConfigStoreOptions) {
    this.path = path.join(options.dataDir, 'config.json');
    this.#locked = options.locked ?? {};
    const { conf, config } = this.#open();
    this.#conf = conf;
    this.#config = config;
  }

  get(): KioskConfig {
    return structuredClone(this.#config);
  }

  getKey(key: string): unknown {
    this.#assertKey(key);
    return readDotted(this.#config, key);
  }

  /** Sets one key from typed value; throws ConfigError (nothing written) when it is not allowed. */
  set(key: string, value: unknown): KioskConfig {
    return this.setMany({ [key]: value });
  }

  /** Sets several keys at once, checked as a whole: all are written or none is. */
  setMany(values: Record<string, unknown>): KioskConfig {
    let next: unknown = this.#config;
    for (const [key, value] of Object.entries(values)) {
      this.#assertKey(key);
      if (this.isLocked(key)) throw new ConfigError(`${key} is set by the provisioning file and cannot be changed here`);
      next = withDotted(next, { [key]: value });
    }
    const result = KioskConfig.safeParse(next);
    if (!result.success) throw new ConfigError(describeIssues(result.error));
    this.#write(result.data);
    return this.get();
  }

  isLocked(key: string): boolean {
    return Object.hasOwn(this.#locked, key);
  }

  lockedKeys(): string[] {
    return Object.keys(this.#locked);
  }

  /** Sets one key from command-line text (`9600`, `true`, `camera`, `en,nl`). */
  setFromText(key: string, text: string): KioskConfig {
    this.#assertKey(key);
    let firstError: ConfigError | undefined;
    for (const candidate of candidateValues(this.#config, key, text)) {
      try {
        return this.set(key, candidate);
      } catch (error) {
        firstError ??= error as ConfigError;
      }
    }
    throw firstError as ConfigError;
  }

  onChange(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Picks up changes another process writes (kioskctl on a running kiosk). An invalid file is
   * ignored with a warning: a running kiosk keeps its last good settings.
   */
  watchExternalChanges(): () => void {
    let timer: NodeJS.Timeout | undefined;
    const watcher = fs.watch(path.dirname(this.path), (_event, file) => {
      if (file !== path.basename(this.path)) return;
      clearTimeout(timer);
      timer = setTimeout(() => this.#reload(), 50);
    });
    return () => {
      clearTimeout(timer);
      watcher.close();
    };
  }

  #reload() {
    let parsed: KioskConfig;
    try {
      const raw = JSON.parse(fs.readFileSync(this.path, 'utf8')) as Record<string, unknown>;
      parsed = this.#withLocked(KioskConfig.parse(migrateConfig(raw, this.options.migrations ?? configMigrations)));
    } catch (error) {
      const reason = error instanceof z.ZodError ? describeIssues(error) : String(error);
      this.options.logger.warn('config file changed but cannot be used; keeping the current settings', { reason });
      return;
    }
    if (JSON.stringify(parsed) === JSON.stringify(this.#config)) return;
    this.options.logger.info('config file changed outside the kiosk; settings reloaded');
    this.#config = parsed;
    this.#notify();
  }

  /** The provisioning file's values always win; they were checked as a whole when it was read. */
  #withLocked(config: KioskConfig): KioskConfig {
    return KioskConfig.parse(withDotted(config, this.#locked));
  }

  #notify() {
    for (const listener of this.#listeners) listener(this.get());
  }

  #assertKey(key: string) {
    if (!isConfigKey(key)) throw new ConfigError(`unknown setting "${key}"`);
  }

  #write(config: KioskConfig) {
    this.#conf.store = config;
    this.#config = config;
    this.#notify();
  }

  /**
   * Only a file that exists and cannot be used is moved aside. Provisioned values that do not fit
   * the settings file are no reason to discard it: they are ignored, like an invalid provisioning file.
   */
  #open(): { conf: Conf<Record<string, unknown>>; config: KioskConfig } {
    let conf: Conf<Record<string, unknown>>;
    let stored: KioskConfig;
    try {
      conf = this.#openConf();
      stored = KioskConfig.parse(migrateConfig(conf.store, this.options.migrations ?? configMigrations));
    } catch (error) {
      this.#moveAside(error);
      conf = this.#openConf();
      stored = defaultConfig();
    }
    const provisioned = KioskConfig.safeParse(withDotted(stored, this.#locked));
    if (!provisioned.success) {
      this.options.logger.error('provisioned settings do not fit the settings file; provisioning ignored', {
        reason: describeIssues(provisioned.error),
      });
      this.#locked = {};
    }
    const config = provisioned.success ? provisioned.data : stored;
    if (JSON.stringify(conf.store) !== JSON.stringify(config)) conf.store = config;
    return { conf, config };
  }

  #moveAside(error: unknown) {
    // Only a file that exists is moved: a folder nothing could be written to has none.
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const movedTo = fs.existsSync(this.path) ? `${this.path}.corrupt-${stamp}` : null;
    if (movedTo) fs.renameSync(this.path, movedTo);
    this.options.logger.warn(`config file unreadable; ${movedTo ? 'moved aside, ' : ''}using defaults`, {
      movedTo,
      reason: error instanceof z.ZodError ? describeIssues(error) : String(error),
    });
  }

  #openConf() {
    return new Conf<Record<string, unknown>>({
      cwd: this.options.dataDir,
      configName: 'config',
      projectName: 'loyalty-kiosk',
      clearInvalidConfig: false,
      accessPropertiesByDotNotation: false,
      defaults: { schemaVersion: CONFIG_SCHEMA_VERSION },
    });
  }
}

export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
