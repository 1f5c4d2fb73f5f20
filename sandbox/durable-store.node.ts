import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileDurably } from '../main/persistence/durable-file.node.ts';
import { STATE_VERSION, type SandboxState } from './state.std.ts';

/**
 * The sandbox state in memory, persisted to `state.json` in the data folder. Changes are made
 * synchronously in memory (so requests never interleave inside one) and marked with `changed()`;
 * `durable()` resolves once everything changed so far is on disk. Several changes that arrive
 * while a write is running share the next write, so a burst costs a few fsyncs, not one each.
 */
export class DurableStore {
  #changes = 0;
  #savedChanges = 0;
  #saving: Promise<void> | null = null;

  private constructor(
    readonly file: string,
    readonly state: SandboxState,
  ) {}

  /** Loads the state of `dir`, or seeds and saves a new one when the folder has none. */
  static async open(dir: string, seed: () => SandboxState): Promise<DurableStore> {
    await fs.mkdir(dir, { recursive: true });
    const file = path.join(dir, 'state.json');
    const saved = await readState(file);
    const store = new DurableStore(file, saved ?? seed());
    if (!saved) {
      store.changed();
      await store.durable();
    }
    return store;
  }

  changed(): void {
    this.#changes += 1;
  }

  async durable(): Promise<void> {
    const target = this.#changes;
    while (this.#savedChanges < target) {
      this.#saving ??= this.#save().finally(() => {
        this.#saving = null;
      });
      await this.#saving;
    }
  }

  async #save(): Promise<void> {
    const covered = this.#changes;
    await writeFileDurably(this.file, JSON.stringify(this.state));
    this.#savedChanges = covered;
  }
}

async function readState(file: string): Promise<SandboxState | null> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const state = JSON.parse(text) as SandboxState;
  if (state.version !== STATE_VERSION) {
    throw new Error(`${file} has state version ${String(state.version)}; this sandbox reads version ${STATE_VERSION}.`);
  }
  return state;
}
