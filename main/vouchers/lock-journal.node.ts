import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Logger } from '../logging/logger.std.ts';
import { writeFileDurably } from '../persistence/durable-file.node.ts';

/**
 * The voucher locks this kiosk holds, on disk, so that a crash, a power cut or a quit never
 * forgets a lock: at the next start every entry is released or reconciled. Each change is on
 * disk before its promise resolves, and a crash at any moment leaves the old or the new file.
 */

export const LockEntry = z.object({
  voucherUuid: z.string().min(1),
  code: z.string().min(1),
  /** Opens the lock for redeem and release; not a platform secret, but never logged. */
  releaseKey: z.string().min(1),
  /** times_redeemed read under the lock: a higher count later means a redemption landed. */
  timesRedeemedBefore: z.number().int().min(0),
  lockedAt: z.string(),
  /** When the platform releases the lock by itself; no point retrying a release after it. */
  systemReleaseAt: z.string(),
  /** 'redeeming' from just before a redeem request leaves until its outcome is known. */
  phase: z.enum(['locked', 'redeeming']),
  contactUuid: z.string().optional(),
});
export type LockEntry = z.output<typeof LockEntry>;

const JournalFile = z.object({ version: z.literal(1), entries: z.array(LockEntry) });

export const JOURNAL_FILE = 'voucher-locks.json';

export interface LockJournal {
  readonly path: string;
  entries(): LockEntry[];
  get(voucherUuid: string): LockEntry | undefined;
  /** Adds or replaces the voucher's entry; resolves once the file on disk holds it. */
  put(entry: LockEntry): Promise<void>;
  /** Resolves once the file on disk no longer holds the voucher's entry. */
  remove(voucherUuid: string): Promise<void>;
}

/**
 * Reads `dir/voucher-locks.json` (none yet: empty). A file that cannot be read as a journal is
 * moved aside and logged, and the journal starts empty: a bad file must not stop the kiosk.
 */
export async function openLockJournal({ dir, logger }: { dir: string; logger: Logger }): Promise<LockJournal> {
  const file = path.join(dir, JOURNAL_FILE);
  await fs.mkdir(dir, { recursive: true });
  const held = new Map((await readEntries(file, logger)).map((entry) => [entry.voucherUuid, entry]));

  // One write at a time, each of the whole map as it stands when the write starts, so a
  // later write never lands under an earlier one.
  let writes: Promise<void> = Promise.resolve();
  const persist = () => {
    const write = writes.then(() =>
      writeFileDurably(file, `${JSON.stringify({ version: 1, entries: [...held.values()] }, null, 2)}\n`),
    );
    writes = write.catch(() => {});
    return write;
  };

  return {
    path: file,
    entries: () => [...held.values()],
    get: (voucherUuid) => held.get(voucherUuid),
    put(entry) {
      held.set(entry.voucherUuid, LockEntry.parse(entry));
      return persist();
    },
    remove(voucherUuid) {
      return held.delete(voucherUuid) ? persist() : writes;
    },
  };
}

async function readEntries(file: string, logger: Logger): Promise<LockEntry[]> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  try {
    return JournalFile.parse(JSON.parse(text)).entries;
  } catch (error) {
    const aside = `${file}.corrupt-${Date.now()}`;
    await fs.rename(file, aside);
    // The reason only: the content holds release keys and voucher codes.
    const reason = error instanceof z.ZodError ? 'not a lock journal' : 'not JSON';
    logger.warn('voucher lock journal unreadable; moved aside, starting empty', { movedTo: aside, reason });
    return [];
  }
}

