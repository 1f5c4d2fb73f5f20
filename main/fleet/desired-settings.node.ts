import { z } from 'zod';
import { readBoundedFile } from '../../base/bounded-file.node.ts';
import { writeFileDurablySync } from '../../base/durable-file.node.ts';
import { isConfigKey, keptFromFleet } from '../config/config-keys.std.ts';
import type { ConfigStore } from '../config/config-store.node.ts';
import type { Logger } from '../logging/logger.std.ts';
import { type DesiredSettings, type FleetHealth, readSettingsLayer } from './fleet-messages.std.ts';

/** What a kiosk reports of its desired settings, in its health. */
export type DesiredSettingsState = NonNullable<FleetHealth['desiredSettings']>;

/** Key → the value the kiosk had before the fleet set it, for each key the fleet holds. */
const HeldKeys = z.record(z.string(), z.unknown());
type HeldKeys = z.infer<typeof HeldKeys>;
/** Far above what the settings' keys and their values take. */
const MAX_HELD_FILE_BYTES = 256 * 1024;

/**
 * The desired settings the broker keeps for this kiosk, in layers (the fleet's, each group's, its
 * own: the later wins), applied to its settings: at every connect, once the broker has sent every
 * retained layer (so a key two layers set goes straight to the stronger one's value), and on every
 * change. A key no layer asks any more goes back to what the kiosk had before the fleet set it (its
 * provisioned, console or default value), remembered in `heldFile` across restarts, so a key
 * removed while the kiosk was off goes back too. State, not a command: nothing runs. A key the fleet
 * may not set (manager.*, fleet.*), one provisioning locks, an unknown one or a value the schema
 * refuses is left as it is, and named with why in `state()`.
 */
export class DesiredSettingsLayers {
  /** Each layer's topic, in order, and its keys once read (null: a layer that is no settings object). */
  #layers = new Map<string, DesiredSettings | null>();
  /** Why a key could not be applied, from the last apply. */
  #refused = new Map<string, string>();
  /** Whether this connection's retained layers have all come: until then nothing is applied. */
  #settled = false;
  #held: HeldKeys;

  constructor(private readonly parts: { config: ConfigStore; logger: Logger; heldFile: string | null }) {
    this.#held = loadHeld(parts.heldFile, parts.logger);
  }

  /** A new connection: `topics` are its layers, weakest first; what an earlier connection held is forgotten. */
  connected(topics: readonly string[]): void {
    this.#layers = new Map(topics.map((topic) => [topic, {}]));
    this.#settled = false;
  }

  /** A layer as the broker sent it (empty: removed); applied at once once the connection has settled. */
  take(topic: string, payload: Buffer): void {
    if (!this.#layers.has(topic)) return;
    this.#layers.set(topic, payload.byteLength === 0 ? {} : readSettingsLayer(payload));
    if (this.#settled) this.#apply();
  }

  /** The broker has sent every retained layer of this connection (a layer it sent none of is empty): they are applied. */
  settled(): void {
    this.#settled = true;
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
    const wanted = this.#wanted();
    const held = { ...this.#held };
    const changes: Record<string, unknown> = {};
    for (const [key, value] of wanted) {
      const refusal = refusalOf(config, key, value);
      if (refusal !== null) this.#refused.set(key, refusal);
      else if (!sameValue(config.getKey(key), value)) {
        if (!Object.hasOwn(held, key)) held[key] = config.getKey(key);
        changes[key] = value;
      }
    }
    const restored = this.#restorable(wanted);
    for (const key of Object.keys(held)) if (!wanted.has(key)) delete held[key];
    const set = this.#set({ ...changes, ...restored });
    this.#keepHeld(held);
    const changed = set.filter((key) => Object.hasOwn(changes, key));
    const back = set.filter((key) => Object.hasOwn(restored, key));
    if (set.length > 0) logger.info("settings changed by the fleet's desired settings", { event: 'fleet.settings_applied', keys: changed, restored: back });
    if (this.#refused.size > 0) logger.warn('desired settings the kiosk did not apply', { event: 'fleet.settings_refused', keys: [...this.#refused.keys()] });
  }

  /** The keys the fleet held and no layer asks any more, with the value each goes back to (a key provisioning now locks stays). */
  #restorable(wanted: Map<string, unknown>): Record<string, unknown> {
    const { config } = this.parts;
    return Object.fromEntries(Object.entries(this.#held).filter(([key]) => !wanted.has(key) && isConfigKey(key) && !config.isLocked(key)));
  }

  /** Sets `values` at once, else each alone so one the schema refuses holds back no other; the keys set. */
  #set(values: Record<string, unknown>): string[] {
    const { config } = this.parts;
    const differing = Object.entries(values).filter(([key, value]) => isConfigKey(key) && !sameValue(config.getKey(key), value));
    if (differing.length === 0) return [];
    try {
      config.setMany(Object.fromEntries(differing));
      return differing.map(([key]) => key);
    } catch {
      return differing.flatMap(([key, value]) => {
        try {
          config.set(key, value);
          return [key];
        } catch (error) {
          this.#refused.set(key, (error as Error).message.slice(0, 300));
          return [];
        }
      });
    }
  }

  #keepHeld(held: HeldKeys): void {
    if (sameValue(held, this.#held)) return;
    this.#held = held;
    if (!this.parts.heldFile) return;
    try {
      writeFileDurablySync(this.parts.heldFile, `${JSON.stringify(held)}\n`);
    } catch (error) {
      this.parts.logger.warn('the keys the fleet set were not remembered', { event: 'fleet.settings_held_unwritten', error: String(error) });
    }
  }
}

/** What the fleet held when the kiosk last ran; nothing when there is no such file or it cannot be read. */
function loadHeld(file: string | null, logger: Logger): HeldKeys {
  if (!file) return {};
  try {
    const read = readBoundedFile(file, MAX_HELD_FILE_BYTES);
    if (read.kind === 'missing') return {};
    if (read.kind === 'refused') throw new Error(`the file is ${read.reason}`);
    return HeldKeys.parse(JSON.parse(read.text));
  } catch (error) {
    // A key the fleet set and then removed keeps its value: the log says why.
    logger.warn('the keys the fleet set are unreadable; none will go back when removed', { event: 'fleet.settings_held_unreadable', error: String(error) });
    return {};
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
