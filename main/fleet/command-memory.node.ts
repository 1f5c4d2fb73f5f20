import { z } from 'zod';
import { readBoundedFile } from '../../base/bounded-file.node.ts';
import { writeFileDurablySync } from '../../base/durable-file.node.ts';
import type { Logger } from '../logging/logger.std.ts';
import { CommandResult } from './fleet-messages.std.ts';

/** How many commands are remembered: far more than a fleet replays, few enough to rewrite at each command. */
const REMEMBERED = 200;
/** An answer longer than this (a screenshot, diagnostics) is remembered by its outcome only. */
const MAX_REMEMBERED_ANSWER = 2_048;
/** Above the most the memory can hold: 200 answers of 2,048 characters (up to 3 bytes each) and their keys. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

/** `answer` null: received and started, never answered (a restart ends the process first). */
const Entry = z.strictObject({ key: z.string(), answer: CommandResult.nullable() });
type Entry = z.infer<typeof Entry>;
/** As read back: every key is kept, whatever became of its answer. */
const StoredEntries = z.array(z.object({ key: z.string(), answer: z.unknown() }));

/**
 * The fleet commands this kiosk has acted on, by name and id, kept across restarts: a command
 * replayed (by a broker, a script run twice, an attacker who recorded it) is answered from here
 * and never run again. Each is written down before it runs, so a restart cannot forget itself.
 */
export interface CommandMemory {
  /** The answer to give a command seen before, or undefined for a new one. */
  recall(name: string, id: string): CommandResult | undefined;
  started(name: string, id: string): void;
  finished(name: string, id: string, result: CommandResult): void;
}

/** `file` null: in memory only (a test's kiosk). */
export function commandMemory(file: string | null, logger: Logger): CommandMemory {
  const entries = new Map<string, CommandResult | null>(load(file, logger).map(({ key, answer }) => [key, answer]));
  const keyOf = (name: string, id: string) => `${name}\n${id}`;
  const put = (key: string, answer: CommandResult | null) => {
    entries.delete(key);
    entries.set(key, answer);
    while (entries.size > REMEMBERED) entries.delete(entries.keys().next().value!);
    if (!file) return;
    const list: Entry[] = [...entries].map(([entryKey, entryAnswer]) => ({ key: entryKey, answer: entryAnswer }));
    try {
      writeFileDurablySync(file, `${JSON.stringify(list)}\n`);
    } catch (error) {
      logger.warn('fleet command memory not written', { error: String(error) });
    }
  };
  return {
    recall(name, id) {
      const key = keyOf(name, id);
      if (!entries.has(key)) return undefined;
      const answer = entries.get(key);
      return answer ? { ...answer, replayed: true } : { id, ok: false, error: 'already received: not run again', replayed: true };
    },
    started: (name, id) => put(keyOf(name, id), null),
    finished: (name, id, result) => put(keyOf(name, id), compact(result)),
  };
}

function compact(result: CommandResult): CommandResult {
  if (JSON.stringify(result).length <= MAX_REMEMBERED_ANSWER) return result;
  return result.ok ? { id: result.id, ok: true, result: { note: 'answered before; too long to repeat' } } : { id: result.id, ok: false, error: result.error.slice(0, 500) };
}

function load(file: string | null, logger: Logger): Entry[] {
  if (!file) return [];
  try {
    const read = readBoundedFile(file, MAX_FILE_BYTES);
    if (read.kind === 'missing') return [];
    if (read.kind === 'refused') throw new Error(`the file is ${read.reason}`);
    const stored = StoredEntries.parse(JSON.parse(read.text));
    const entries = stored.map(({ key, answer }) => Entry.safeParse({ key, answer }).data ?? { key, answer: null });
    const unreadable = entries.filter((entry, index) => entry.answer === null && stored[index]!.answer !== null).length;
    // Still never run again: such a command is answered "already received".
    if (unreadable > 0) logger.warn('fleet command memory: answers unreadable, their commands kept as received', { event: 'fleet.memory.answers_unreadable', unreadable });
    return entries;
  } catch (error) {
    // A command replayed now could run a second time: the log says the memory was lost.
    logger.warn('fleet command memory unreadable; starting afresh', { event: 'fleet.memory.unreadable', error: String(error) });
    return [];
  }
}
