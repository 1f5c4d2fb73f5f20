import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { LogFields, Logger } from '../logging/logger.std.ts';
import { readDotted, withDotted } from '../../common/dotted-keys.std.ts';
import { candidateValues, isConfigKey } from './config-keys.std.ts';
import { CONFIG_SCHEMA_VERSION, defaultConfig, DEMO_DEFAULTS, isDemoConfig, KioskConfig } from '../../common/config-schema.std.ts';
import { migrateConfig, type ConfigMigrations, configMigrations } from './config-migrations.std.ts';
import { recoverConfig, salvageSettings } from './config-recovery.std.ts';
import { readBoundedFile } from '../../base/bounded-file.node.ts';
import { PRIVATE_FILE_MODE, writeFileDurablySync } from '../../base/durable-file.node.ts';
import { PRIVATE_DIR_MODE } from '../paths/data-dir.node.ts';
import { dataFiles } from '../paths/data-files.node.ts';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export interface ConfigStoreOptions {
  dataDir: string;
  logger: Logger;
  migrations?: ConfigMigrations;
  /** Keys a provisioning file fixes (dotted key → value): applied over the file, refused to every writer. */
  locked?: Record<string, unknown>;
  /** What is wrong with the provisioning file (`key: why`), when it is invalid: the kiosk then serves no shopper. */
  provisioningProblems?: readonly string[];
  /** Look only: nothing is written, created or moved (kioskctl config show, doctor). Writes are refused. */
  readOnly?: boolean;
}

type Listener = (config: KioskConfig) => void;

/** Something the store found wrong with the settings when it opened them (each also logged). */
export interface ConfigFinding {
  severity: 'warn' | 'error';
  /** What was wrong, as the log line says it. */
  problem: string;
  /** Which setting, when it is one. */
  key: string | null;
  /** Why, or what: the schema's reason, the entries ignored. */
  detail: string | null;
}

/** Far above any settings file (the longest value, the terms, is 20,000 characters). */
const MAX_FILE_BYTES = 1024 * 1024;

/** What is on disk: nothing yet, a file refused unread (too large, a link), bytes that are no settings object, or a settings tree. */
/** `bytes` as read: a copy kept aside is the file exactly, even where it is no UTF-8. */
type StoredFile =
  | { kind: 'missing' }
  | { kind: 'refused'; reason: string }
  | { kind: 'unreadable'; bytes: Buffer; reason: string }
  | { kind: 'tree'; bytes: Buffer; raw: Record<string, unknown> };

/**
 * The kiosk's settings file (`config.json` in the data folder). Writes are atomic and owner-only,
 * every value is checked against the one schema. A file with bad values loses only those values
 * (each logged by name); a file that is no JSON at all is copied aside before defaults replace it;
 * a file from a newer kiosk is left as it is and opened read-only.
 */
export class ConfigStore {
  readonly path: string;
  #config: KioskConfig;
  #locked: Record<string, unknown>;
  /** Why writes are refused, or null when they are taken. */
  #readOnlyReason: string | null;
  #listeners = new Set<Listener>();
  readonly #findings: ConfigFinding[] = [];

  constructor(private readonly options: ConfigStoreOptions) {
    this.path = dataFiles(options.dataDir).config;
    this.#locked = options.locked ?? {};
    this.#readOnlyReason = options.readOnly ? 'the settings were opened read-only' : null;
    this.#config = this.#open();
  }

  get(): KioskConfig {
    return structuredClone(this.#config);
  }

  isDemo(): boolean {
    return isDemoConfig(this.#config);
  }

  getKey(key: string): unknown {
    this.#assertKey(key);
    return readDotted(this.#config, key);
  }

  /** What was wrong with the settings file when it was opened; empty when nothing was. */
  findings(): ConfigFinding[] {
    return structuredClone(this.#findings);
  }

  /** Null when writes are taken; otherwise why they are refused (a newer kiosk's file, a read-only open). */
  readOnlyReason(): string | null {
    return this.#readOnlyReason;
  }

  /** Sets one key from typed value; throws ConfigError (nothing written) when it is not allowed. */
  set(key: string, value: unknown): KioskConfig {
    return this.setMany({ [key]: value });
  }

  /** Sets several keys at once, checked as a whole: all are written or none is. */
  setMany(values: Record<string, unknown>): KioskConfig {
    if (this.#readOnlyReason) throw new ConfigError(`${this.#readOnlyReason}; nothing was changed`);
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

  /** What is wrong with the provisioning file, each by key; empty when it is valid or missing. */
  provisioningProblems(): string[] {
    return [...(this.options.provisioningProblems ?? [])];
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
      timer = setTimeout(() => this.refresh(), 50);
    });
    return () => {
      clearTimeout(timer);
      watcher.close();
    };
  }

  /**
   * Reads the file again now, as the watcher does a moment after a change: for a decision that
   * must not miss another process's write (kioskctl pin set) by the watcher's delay.
   */
  refresh() {
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
    this.options.logger.info('config file changed outside the kiosk; settings reloaded', { event: 'config.reloaded' });
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
    fs.mkdirSync(this.options.dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    writeFileDurablySync(this.path, `${JSON.stringify(config, null, '\t')}\n`);
    this.#config = config;
    this.#notify();
  }

  /**
   * Provisioned values that do not fit the settings file are no reason to change it: they are
   * ignored, like an invalid provisioning file. The file is written back only when the store
   * takes writes and what it holds differs (a fresh folder, a repaired or migrated file).
   */
  #open(): KioskConfig {
    const file = this.#readFile();
    const stored =
      file.kind === 'tree' ? this.#recover(file.raw)
      : file.kind === 'unreadable' ? this.#recover(salvageSettings(file.bytes.toString('utf8')))
      : file.kind === 'refused' ? this.#recover({})
      : { config: this.#newKioskConfig(), repaired: false };
    if (file.kind === 'unreadable') this.#keepUnreadable(file.bytes, file.reason);
    if (file.kind === 'refused') this.#keepRefused(file.reason);
    const provisioned = KioskConfig.safeParse(withDotted(stored.config, this.#locked));
    if (!provisioned.success) {
      this.#found('error', 'provisioned settings do not fit the settings file; provisioning ignored', { event: 'config.provisioning_ignored', reason: describeIssues(provisioned.error) });
      this.#locked = {};
    }
    const config = provisioned.success ? provisioned.data : stored.config;
    const onDisk = file.kind === 'tree' ? JSON.stringify(file.raw) : null;
    if (this.#readOnlyReason === null && onDisk !== JSON.stringify(config)) {
      if (file.kind === 'tree' && stored.repaired) this.#copyAside(file.bytes);
      this.#write(config);
    }
    return config;
  }

  /** A fresh folder's settings: the defaults, and the demo's own when provisioning leaves it in demo mode. */
  #newKioskConfig(): KioskConfig {
    const config = defaultConfig();
    if (!isDemoConfig(withDotted(config, this.#locked) as KioskConfig)) return config;
    return KioskConfig.parse(withDotted(config, DEMO_DEFAULTS));
  }

  #readFile(): StoredFile {
    const read = readBoundedFile(this.path, MAX_FILE_BYTES);
    if (read.kind !== 'read') return read;
    const { bytes, text } = read;
    try {
      const raw: unknown = JSON.parse(text);
      if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return { kind: 'tree', bytes, raw: raw as Record<string, unknown> };
      return { kind: 'unreadable', bytes, reason: 'not a JSON object' };
    } catch (error) {
      // The parser quotes the file; the reason is logged, so only its kind and position are kept.
      return { kind: 'unreadable', bytes, reason: `not valid JSON (${String(error).replace(/,?\s*".*$/s, '')})` };
    }
  }

  /** The settings a file holds, at this kiosk's schema version, every bad key logged by name. */
  #recover(raw: Record<string, unknown>): { config: KioskConfig; repaired: boolean } {
    const version = raw.schemaVersion;
    let current = raw;
    if (typeof version === 'number' && version > CONFIG_SCHEMA_VERSION) {
      this.#readOnlyReason = `config.json was written by a newer kiosk (schema version ${version}; this one reads ${CONFIG_SCHEMA_VERSION}) and is kept as it is`;
      this.#found('error', 'config file is from a newer kiosk: opened read-only, left untouched; settings changes are refused', {
        event: 'config.newer_schema',
        schemaVersion: version,
        reads: CONFIG_SCHEMA_VERSION,
      });
    } else {
      try {
        current = migrateConfig(raw, this.options.migrations ?? configMigrations);
      } catch (error) {
        this.#found('warn', 'config file cannot be migrated; keeping the settings that still fit', { reason: String(error) });
      }
    }
    const { config, invalid, ignored } = recoverConfig(current);
    for (const { key, reason } of invalid) this.#found('warn', `config key ${key} is invalid; using its default`, { event: 'config.key_invalid', key, reason });
    if (ignored.length > 0) this.#found('warn', 'config file entries that are no setting were ignored', { event: 'config.entries_ignored', ignored });
    return { config, repaired: invalid.length > 0 || ignored.length > 0 };
  }

  /** Logs what opening the settings found wrong, and keeps it for findings(). */
  #found(severity: ConfigFinding['severity'], problem: string, fields: { key?: string; reason?: string; ignored?: string[] } & LogFields) {
    this.options.logger[severity](problem, fields);
    const detail = fields.reason ?? fields.ignored?.join(', ') ?? null;
    this.#findings.push({ severity, problem, key: fields.key ?? null, detail });
  }

  /** Bytes that are no JSON: a copy is kept aside (never lost), the kiosk runs on what was legible, else defaults. */
  #keepUnreadable(bytes: Buffer, reason: string) {
    const copy = this.#readOnlyReason === null ? this.#copyAside(bytes) : null;
    this.#found('error', 'config file unreadable; keeping the settings still legible in it, defaults for the rest', { event: 'config.unreadable', reason, copy });
  }

  /** A file refused unread: moved aside as it is (never read, so never copied), defaults in its place. */
  #keepRefused(reason: string) {
    const movedTo = this.#readOnlyReason === null ? this.#moveAside() : null;
    this.#found('error', 'config file refused unread; starting on defaults', { event: 'config.refused', reason, movedTo });
  }

  /** A copy of the file as it was, next to it: a repair never loses what an admin wrote. */
  #copyAside(content: Buffer): string {
    return this.#putAside((copy) => fs.writeFileSync(copy, content, { mode: PRIVATE_FILE_MODE, flag: 'wx' }));
  }

  /** The file itself moved next to it (a link as the link): linked first, so no earlier copy is replaced. */
  #moveAside(): string {
    return this.#putAside((copy) => {
      fs.linkSync(this.path, copy);
      fs.rmSync(this.path);
    });
  }

  /** Where `place` put the file aside: a name of its own, `place` failing with EEXIST on one taken. */
  #putAside(place: (copy: string) => void): string {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    // Never over an earlier copy: two repairs within one millisecond get a number each.
    for (let count = 0; ; count += 1) {
      const copy = `${this.path}.corrupt-${stamp}${count === 0 ? '' : `-${count}`}`;
      try {
        place(copy);
        return copy;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }
}

export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
