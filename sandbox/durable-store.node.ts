import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileDurably } from '../base/durable-file.node.ts';
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

/**
 * A state file that cannot be read back. Its message names the file and what to do, never its
 * content: the state holds the demo credentials, and the parser would quote them.
 */
export class SandboxStateError extends Error {
  override readonly name = 'SandboxStateError';
}

async function readState(file: string): Promise<SandboxState | null> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const startAfresh = `move it aside (or delete it) to start afresh on new demo data`;
  let state: unknown;
  try {
    state = JSON.parse(text);
  } catch {
    throw new SandboxStateError(`the demo state ${file} is not valid JSON (damaged or cut short); ${startAfresh}`);
  }
  const version = typeof state === 'object' && state !== null ? (state as { version?: unknown }).version : undefined;
  if (version !== STATE_VERSION) {
    const found = typeof version === 'number' ? `version ${version}` : 'no state version';
    throw new SandboxStateError(`the demo state ${file} has ${found}; this sandbox reads version ${STATE_VERSION}; ${startAfresh}`);
  }
  return state as SandboxState;
}
