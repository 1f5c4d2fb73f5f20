import { isConfigKey, keptFromFleet } from '../config/config-keys.std.ts';
import type { ConfigStore } from '../config/config-store.node.ts';
import type { Logger } from '../logging/logger.std.ts';
import { type DesiredSettings, type FleetHealth, readSettingsLayer } from './fleet-messages.std.ts';

/** What a kiosk reports of its desired settings, in its health. */
export type DesiredSettingsState = NonNullable<FleetHealth['desiredSettings']>;

/**
 * The desired settings the broker keeps for this kiosk, in layers (the fleet's, each group's, its
 * own: the later wins), applied to its settings: at every connect (the broker sends each retained
 * layer again) and on every change. State, not a command: nothing runs. A key the fleet may not set
 * (manager.*, fleet.*), one provisioning locks, an unknown one or a value the schema refuses is left
 * as it is, and named with why in `state()`.
 */
export class DesiredSettingsLayers {
  /** Each layer's topic, in order, and its keys once read (null: a layer that is no settings object). */
  #layers = new Map<string, DesiredSettings | null>();
  /** Why a key could not be applied, from the last apply. */
  #refused = new Map<string, string>();

  constructor(private readonly parts: { config: ConfigStore; logger: Logger }) {}

  /** A new connection: `topics` are its layers, weakest first; what an earlier connection held is forgotten. */
  connected(topics: readonly string[]): void {
    this.#layers = new Map(topics.map((topic) => [topic, {}]));
  }

  /** A layer as the broker sent it (empty: removed); applied at once. */
  take(topic: string, payload: Buffer): void {
    if (!this.#layers.has(topic)) return;
    this.#layers.set(topic, payload.byteLength === 0 ? {} : readSettingsLayer(payload));
    this.#apply();
  }

  /** `applied` when the settings in force are what the layers ask; `drifting` names each key that is not, and why. */
  state(): DesiredSettingsState {
    const wanted = this.#wanted();
    if (wanted.size === 0 && ![...this.#layers.values()].includes(null)) return { state: 'none', drift: {} };
    const drift: Record<string, string> = {};
    for (const [topic, layer] of this.#layers) if (layer === null) drift[topic.slice(-200)] = 'not a JSON object of settings (at most 64 KiB): ignored';
    for (const [key, value] of wanted) {
      const refused = this.#refused.get(key);
      if (refused !== undefined) drift[key] = refused;
      else if (!sameValue(this.parts.config.getKey(key), value)) drift[key] = 'changed here since the fleet set it';
    }
    return { state: Object.keys(drift).length > 0 ? 'drifting' : 'applied', drift };
  }

  /** The layers merged, the later winning. */
  #wanted(): Map<string, unknown> {
    const wanted = new Map<string, unknown>();
    for (const layer of this.#layers.values()) for (const [key, value] of Object.entries(layer ?? {})) wanted.set(key, value);
    return wanted;
  }

  #apply(): void {
    const { config, logger } = this.parts;
    this.#refused = new Map();
    const changes: Record<string, unknown> = {};
    for (const [key, value] of this.#wanted()) {
      const refusal = refusalOf(config, key, value);
      if (refusal !== null) this.#refused.set(key, refusal);
      else if (!sameValue(config.getKey(key), value)) changes[key] = value;
    }
    if (Object.keys(changes).length === 0) return;
    try {
      config.setMany(changes);
    } catch {
      // One value the schema refuses holds back no other: each is tried alone.
      for (const [key, value] of Object.entries(changes)) {
        try {
          config.set(key, value);
        } catch (error) {
          delete changes[key];
          this.#refused.set(key, (error as Error).message.slice(0, 300));
        }
      }
    }
    if (Object.keys(changes).length > 0) logger.info('settings changed by the fleet\'s desired settings', { event: 'fleet.settings_applied', keys: Object.keys(changes) });
    if (this.#refused.size > 0) logger.warn('desired settings the kiosk did not apply', { event: 'fleet.settings_refused', keys: [...this.#refused.keys()] });
  }
}

/** Why `key` is not applied, or null when it may be (the schema still has its say). */
function refusalOf(config: ConfigStore, key: string, value: unknown): string | null {
  if (keptFromFleet(key)) return 'refused: not set over the fleet (the PIN from the console or kioskctl, the broker from provisioning or kioskctl)';
  if (!isConfigKey(key)) return 'refused: unknown setting';
  if (config.isLocked(key)) return sameValue(config.getKey(key), value) ? null : 'locked by the provisioning file';
  return null;
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
