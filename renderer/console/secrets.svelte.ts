import type { BridgeResult, KioskApi } from '../../common/contract.std.ts';
import type { ConsoleSettings, ManagerStatus, SecretName } from '../../common/manager-views.std.ts';
import type { ConsoleCall } from './console-link.svelte.ts';
import { failureText } from './wording.svelte';

export type SecretsBridge = Pick<KioskApi, 'setSecret' | 'removeSecret' | 'setManagerPin'>;
type SecretsStatus = ConsoleSettings['secrets'];

/** What the keychain holds and the manager's PIN: changed through main, which never hands either back. */
export class Secrets {
  busy = $state(false);
  problem = $state<string | null>(null);
  readonly #bridge: SecretsBridge;
  readonly #call: ConsoleCall;

  constructor({ bridge, call }: { bridge: SecretsBridge; call: ConsoleCall }) {
    this.#bridge = bridge;
    this.#call = call;
  }

  /** What the keychain holds now, or null when main refused (the problem says why). */
  store(name: SecretName, value: string): Promise<SecretsStatus | null> {
    return this.#run(() => this.#bridge.setSecret({ name, value }));
  }

  remove(name: SecretName): Promise<SecretsStatus | null> {
    return this.#run(() => this.#bridge.removeSecret({ name }));
  }

  /** The console's status with the new PIN (which unlocks it), or null when main refused it. */
  setPin(pin: string): Promise<ManagerStatus | null> {
    return this.#run(() => this.#bridge.setManagerPin({ pin }));
  }

  async #run<T>(run: () => Promise<BridgeResult<T>>): Promise<T | null> {
    this.busy = true;
    const result = await this.#call(run);
    this.busy = false;
    this.problem = result.ok ? null : failureText(result.error);
    return result.ok ? result.value : null;
  }
}
