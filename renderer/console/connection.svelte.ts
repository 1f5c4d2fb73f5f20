import type { BridgeResult, CallInput, KioskApi } from '../../common/contract.std.ts';
import type { ConnectionCheck, ConsoleSettings } from '../../common/manager-views.std.ts';
import type { ConsoleCall } from './console-link.svelte.ts';
import type { ConnectValues } from './connection-form.std.ts';
import { failureText } from './wording.svelte';

export type ConnectionBridge = Pick<KioskApi, 'testConnection' | 'updateSettings' | 'setSecret'>;

/** Testing the platform connection and saving a new one: whether a call is under way, and what went wrong. */
export class Connection {
  busy = $state(false);
  failure = $state<string | null>(null);
  readonly #bridge: ConnectionBridge;
  readonly #call: ConsoleCall;

  constructor({ bridge, call }: { bridge: ConnectionBridge; call: ConsoleCall }) {
    this.#bridge = bridge;
    this.#call = call;
  }

  /** Main's check of the connection (with the key typed, or the stored one); null when the call failed. */
  async test(input: CallInput<'testConnection'>): Promise<ConnectionCheck | null> {
    const result = await this.#busyWhile(() => this.#run(() => this.#bridge.testConnection(input)));
    return result.ok ? result.value : null;
  }

  /**
   * The URL first: a new origin removes the old origin's secrets, then the typed ones are stored for
   * it. Settings provisioned (`lockedKeys`) are left as they are. The saved settings, or null.
   */
  connect(values: ConnectValues, lockedKeys: readonly string[]): Promise<ConsoleSettings | null> {
    return this.#busyWhile(() => this.#save(values, lockedKeys));
  }

  /** Demo: the embedded sandbox comes back (no base URL). The saved settings, or null. */
  async useDemo(): Promise<ConsoleSettings | null> {
    const saved = await this.#busyWhile(() => this.#run(() => this.#bridge.updateSettings({ values: { 'api.baseUrl': null } })));
    return saved.ok ? saved.value : null;
  }

  async #save(values: ConnectValues, lockedKeys: readonly string[]): Promise<ConsoleSettings | null> {
    const entries = Object.entries({ 'api.baseUrl': values.baseUrl, 'api.shopUuid': values.shopUuid }).filter(([key]) => !lockedKeys.includes(key));
    const saved = await this.#run(() => this.#bridge.updateSettings({ values: Object.fromEntries(entries) }));
    if (!saved.ok) return null;
    let secrets = saved.value.secrets;
    for (const [name, value] of Object.entries(values.secrets)) {
      const stored = await this.#run(() => this.#bridge.setSecret({ name: name as keyof typeof values.secrets, value }));
      if (!stored.ok) return null;
      secrets = stored.value;
    }
    return { ...saved.value, secrets };
  }

  async #busyWhile<T>(work: () => Promise<T>): Promise<T> {
    this.busy = true;
    this.failure = null;
    try {
      return await work();
    } finally {
      this.busy = false;
    }
  }

  async #run<T>(run: () => Promise<BridgeResult<T>>): Promise<BridgeResult<T>> {
    const result = await this.#call(run);
    if (!result.ok) this.failure = failureText(result.error);
    return result;
  }
}
