import fs from 'node:fs/promises';
import { z } from 'zod';
import { serialQueue } from '../../base/queue.std.ts';
import type { Logger } from '../logging/logger.std.ts';
import { readBoundedFile } from '../../base/bounded-file.node.ts';
import { writeFileDurablySync } from '../../base/durable-file.node.ts';
import { dataFiles } from '../paths/data-files.node.ts';
import { IdentifiedBy } from '../../common/report-views.std.ts';

/**
 * The voucher locks this kiosk holds, on disk, so that a crash, a power cut or a quit never
 * forgets a lock: at the next start every entry is released or reconciled. Each change is on
 * disk before its promise resolves, and a crash at any moment leaves the old or the new file.
 */

const Shared = {
  voucherUuid: z.string().min(1),
  code: z.string().min(1),
  /**
   * times_redeemed read under the lock: a higher count later means a redemption landed. Null until
   * that read (beside the confirm screen) answers; no Redeem is sent before it has.
   */
  timesRedeemedBefore: z.number().int().min(0).nullable(),
  /** One lock of one voucher, from the Redeem tap to its end: the ledger's rows of it share it. Older journals have none. */
  attemptId: z.string().min(1).optional(),
  /** For the ledger: what the voucher was, and who the shopper was (a contact uuid only). */
  voucherName: z.string().nullable().optional(),
  promotionName: z.string().nullable().optional(),
  identifiedBy: IdentifiedBy.nullable().optional(),
  contactUuid: z.string().optional(),
};

/**
 * A lock this kiosk holds. 'redeeming' from just before a redeem request leaves until its outcome
 * is known; 'settling' once the platform no longer holds the lock while that redemption may have
 * landed: kept, and the voucher not locked again, until Find Voucher tells which.
 */
export const HeldLockEntry = z.object({
  ...Shared,
  /** Opens the lock for redeem and release; not a platform secret, but never logged. */
  releaseKey: z.string().min(1),
  lockedAt: z.string(),
  /** When the platform releases the lock by itself; no point retrying a release after it. */
  systemReleaseAt: z.string(),
  phase: z.enum(['locked', 'redeeming', 'settling']),
}).refine((entry) => entry.phase === 'locked' || entry.timesRedeemedBefore !== null, {
  message: 'a redemption is sent only once the count under the lock is known',
  path: ['timesRedeemedBefore'],
});
export type HeldLockEntry = z.output<typeof HeldLockEntry>;

/**
 * Written before the Lock request leaves: should its answer be lost, or the kiosk die before the
 * lock is journaled, the next start still knows the voucher may be locked by this kiosk.
 */
export const LockIntent = z.object({ ...Shared, phase: z.literal('locking'), intendedAt: z.string() });
export type LockIntent = z.output<typeof LockIntent>;

export const LockEntry = z.discriminatedUnion('phase', [LockIntent, HeldLockEntry]);
export type LockEntry = z.output<typeof LockEntry>;

/**
 * `unresolved`: voucher uuids a damaged journal still showed without their code. Find Voucher
 * works by code only, so recovery looks them up among the LOCKED vouchers before it settles them.
 */
const JournalFile = z.object({ version: z.literal(1), entries: z.array(LockEntry), unresolved: z.array(z.string().min(1)).default([]) });

/** Some ten thousand entries, where a kiosk holds a handful: a larger file is no journal it wrote. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

export interface LockJournal {
  readonly path: string;
  entries(): LockEntry[];
  get(voucherUuid: string): LockEntry | undefined;
  /** Adds or replaces the voucher's entry; resolves once the file on disk holds it. */
  put(entry: LockEntry): Promise<void>;
  /** Resolves once the file on disk no longer holds the voucher's entry. */
  remove(voucherUuid: string): Promise<void>;
  /** Uuids a damaged journal kept without their code, until recovery resolves them. */
  unresolved(): string[];
  /** Resolves an unresolved uuid: into `entry` once its code is known, or away when no lock holds it. */
  resolve(voucherUuid: string, entry?: LockEntry): Promise<void>;
}

/**
 * Reads `dir/voucher-locks.json` (none yet: empty). A file that cannot be read as a journal is
 * moved aside and logged, and every entry that can still be read from it is kept (and written
 * anew at once): a bad file must neither stop the kiosk nor make it forget a lock.
 */
export async function openLockJournal({ dir, logger }: { dir: string; logger: Logger }): Promise<LockJournal> {
  const file = dataFiles(dir).voucherLocks;
  await fs.mkdir(dir, { recursive: true });
  const { entries, unresolved: unresolvedUuids, salvaged } = await readEntries(file, logger);
  const held = new Map(entries.map((entry) => [entry.voucherUuid, entry]));
  const unresolved = new Set(unresolvedUuids.filter((uuid) => !held.has(uuid)));

  const codelessPart = () => (unresolved.size > 0 ? { unresolved: [...unresolved] } : {});

  // One write at a time, each of the whole map as it stands when the write starts, so a
  // later write never lands under an earlier one. Synchronous on purpose: a Redeem waits for
  // this write, and the asynchronous one's ten thread-pool hops cost more than its fsyncs (#32).
  const writes = serialQueue();
  const persist = () =>
    writes.run(() => writeFileDurablySync(file, `${JSON.stringify({ version: 1, entries: [...held.values()], ...codelessPart() }, null, 2)}\n`));
  // The bad file is aside now: the entries read from it must be on disk before anything else.
  if (salvaged) await persist();

  return {
    path: file,
    entries: () => [...held.values()],
    get: (voucherUuid) => held.get(voucherUuid),
    put(entry) {
      held.set(entry.voucherUuid, LockEntry.parse(entry));
      return persist();
    },
    remove(voucherUuid) {
      return held.delete(voucherUuid) ? persist() : writes.idle();
    },
    unresolved: () => [...unresolved],
    resolve(voucherUuid, entry) {
      unresolved.delete(voucherUuid);
      if (entry) held.set(entry.voucherUuid, LockEntry.parse(entry));
      return persist();
    },
  };
}

interface JournalRead {
  entries: LockEntry[];
  unresolved: string[];
  /** Read from a damaged file: write them anew before anything else. */
  salvaged: boolean;
}

async function readEntries(file: string, logger: Logger): Promise<JournalRead> {
  const read = readBoundedFile(file, MAX_FILE_BYTES);
  if (read.kind === 'missing') return { entries: [], unresolved: [], salvaged: false };
  // Never read (too large, a link): aside like a damaged file, with nothing to salvage.
  if (read.kind === 'refused') return setAside(file, '', read.reason, logger);
  try {
    return { ...JournalFile.parse(JSON.parse(read.text)), salvaged: false };
  } catch (error) {
    return setAside(file, read.text, error instanceof z.ZodError ? 'not a lock journal' : 'not JSON', logger);
  }
}

/** A damaged journal moved aside, and the entries still legible in its `text`. */
async function setAside(file: string, text: string, reason: string, logger: Logger): Promise<JournalRead> {
  const aside = `${file}.corrupt-${Date.now()}`;
  await fs.rename(file, aside);
  const { entries, codeless } = salvageEntries(text);
  // The reason and voucher uuids only: the content holds release keys and voucher codes.
  logger.warn('voucher lock journal unreadable; moved aside, the entries still readable kept', {
    event: 'voucher.journal_set_aside',
    movedTo: aside,
    reason,
    kept: entries.map(({ voucherUuid, phase }) => ({ voucherUuid, phase })),
  });
  if (codeless.length > 0) {
    logger.warn('voucher lock journal entries without a code kept; recovery looks them up among the locked vouchers', {
      voucherUuids: codeless,
    });
  }
  return { entries, unresolved: codeless, salvaged: entries.length + codeless.length > 0 };
}

// A JSON string, integer or null value and its key, wherever it stands in the text.
const FIELD = /"(\w+)"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+|null)/g;
// An entry's voucher uuid whose closing quote was lost.
const WHOLE_UUID_CUT_SHORT = /^"voucherUuid"\s*:\s*"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![0-9a-f-])/i;

/**
 * Each entry still legible in a truncated or damaged journal. An entry whose key or times were
 * lost becomes an intent (Find Voucher settles it); one whose phase was lost is taken as
 * 'redeeming', so its redemption is looked for before its lock is released, unless it has no count
 * yet (then no Redeem went out: a plain lock).
 */
function salvageEntries(text: string): { entries: LockEntry[]; codeless: string[] } {
  const entries: LockEntry[] = [];
  const codeless: string[] = [];
  for (const chunk of text.split(/(?="voucherUuid")/).slice(1)) {
    const fields: Record<string, unknown> = {};
    for (const [, key, value] of chunk.matchAll(FIELD)) fields[key!] ??= JSON.parse(value!) as unknown;
    // Cut right after the uuid, before its closing quote: a uuid's length says it is whole.
    fields.voucherUuid ??= WHOLE_UUID_CUT_SHORT.exec(chunk)?.[1];
    // No count under the lock yet proves no Redeem went out: such an entry is a plain lock.
    const held = HeldLockEntry.safeParse({ phase: fields.timesRedeemedBefore === null ? 'locked' : 'redeeming', ...fields });
    const intent = LockIntent.safeParse({ timesRedeemedBefore: 0, intendedAt: new Date().toISOString(), ...fields, phase: 'locking' });
    if (held.success) entries.push(held.data);
    else if (intent.success) entries.push(intent.data);
    else if (typeof fields.voucherUuid === 'string') codeless.push(fields.voucherUuid);
  }
  return { entries, codeless };
}
