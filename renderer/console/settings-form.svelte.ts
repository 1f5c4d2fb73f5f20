import { i18n } from '../i18n/i18n.svelte';
import type { ConsoleSettings } from '../../common/manager-views.std.ts';
import type { BridgeResult, KioskApi } from '../../common/contract.std.ts';
import type { ConsoleCall } from './console-link.svelte.ts';
import type { ExportedFile } from './download.dom.ts';
import { failureText } from './wording.svelte';
import { problemsFromIssues, problemsFromMessage, type FieldProblem } from './settings-problems.std.ts';
import { readDotted, withDotted } from '../../common/dotted-keys.std.ts';
import { ConsoleConfig, fieldKind, isNullable } from './settings-schema.std.ts';

/** A number field's text as the number it means; anything else is left for the schema to refuse. */
const asNumber = (value: unknown) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export type SettingsBridge = Pick<KioskApi, 'getConsoleSettings' | 'updateSettings' | 'exportSettings' | 'importSettings'>;

/**
 * The settings tab's form: the saved settings, the manager's edits on top (by dotted key), and
 * what is wrong with them by field. Saved all or nothing, checked against the config schema first.
 */
export class SettingsForm {
  settings = $state<ConsoleSettings | null>(null);
  problems = $state<Record<string, FieldProblem>>({});
  /** A problem that belongs to no one field (main refused, the platform is away). */
  failure = $state<string | null>(null);
  saving = $state(false);
  /** Set after a save, cleared by the next edit: "saved" shows until then. */
  saved = $state(false);
  #edits = $state<Record<string, unknown>>({});
  readonly #fields: readonly string[];
  readonly #bridge: SettingsBridge;
  readonly #call: ConsoleCall;

  /** `fields`: the dotted keys this form edits. */
  constructor({ bridge, call }: { bridge: SettingsBridge; call: ConsoleCall }, fields: readonly string[]) {
    this.#bridge = bridge;
    this.#call = call;
    this.#fields = fields;
  }

  async load() {
    const result = await this.#call(() => this.#bridge.getConsoleSettings());
    if (result.ok) this.replace(result.value);
    else this.failure = failureText(result.error);
  }

  /** The settings as a file (never secrets, never the PIN), to set up the next kiosk alike. */
  exportFile(): Promise<BridgeResult<ExportedFile>> {
    return this.#call(() => this.#bridge.exportSettings());
  }

  /** Settings from a file, saved by main all or nothing; the form starts over from them. */
  async importFile(json: string): Promise<BridgeResult<ConsoleSettings>> {
    const result = await this.#call(() => this.#bridge.importSettings({ json }));
    if (result.ok) this.replace(result.value);
    return result;
  }

  /** New settings from main (saved, imported, connected): edits and problems start over. */
  replace(settings: ConsoleSettings) {
    this.settings = settings;
    this.#edits = {};
    this.problems = {};
    this.failure = null;
  }

  /** Settings main changed outside this form (connection, secrets): the manager's edits stay. */
  update(settings: ConsoleSettings) {
    this.settings = settings;
  }

  value(key: string): unknown {
    return Object.hasOwn(this.#edits, key) ? this.#edits[key] : readDotted(this.settings?.config, key);
  }

  set(key: string, value: unknown) {
    this.#edits = { ...this.#edits, [key]: value };
    delete this.problems[key];
    this.saved = false;
  }

  locked(key: string): boolean {
    return this.settings?.lockedKeys.includes(key) ?? false;
  }

  /** The edits that differ from what is saved, numbers as numbers. */
  get changes(): Record<string, unknown> {
    const changes: Record<string, unknown> = {};
    for (const [key, raw] of Object.entries(this.#edits)) {
      // Only text can need it; and keys without a control of their own (scanner.serial.usb) have no kind.
      const value = raw === '' && isNullable(key) ? null : typeof raw === 'string' && fieldKind(key).kind === 'number' ? asNumber(raw) : raw;
      if (!same(value, readDotted(this.settings?.config, key))) changes[key] = value;
    }
    return changes;
  }

  get dirty(): boolean {
    return Object.keys(this.changes).length > 0;
  }

  discard() {
    this.#edits = {};
    this.problems = {};
    this.failure = null;
  }

  async save(): Promise<boolean> {
    const changes = this.changes;
    if (!this.settings || this.saving || Object.keys(changes).length === 0) return false;
    // A snapshot: the state proxy itself cannot be cloned.
    const checked = ConsoleConfig.safeParse(withDotted($state.snapshot(this.settings.config), changes));
    if (!checked.success) return this.#refused(problemsFromIssues(checked.error.issues, this.#fields));
    this.saving = true;
    const result = await this.#call(() => this.#bridge.updateSettings({ values: changes }));
    this.saving = false;
    if (result.ok) {
      this.replace(result.value);
      this.saved = true;
      return true;
    }
    if (result.error.code === 'validation') return this.#refused(problemsFromMessage(result.error.message, this.#fields));
    this.failure = failureText(result.error);
    return false;
  }

  #refused({ fields, rest }: { fields: Record<string, FieldProblem>; rest: string[] }): false {
    this.problems = fields;
    this.failure = rest.length > 0 ? i18n.t('console.problem.failed', { message: rest.join('; ') }) : i18n.t('console.settings.check_fields');
    return false;
  }
}
