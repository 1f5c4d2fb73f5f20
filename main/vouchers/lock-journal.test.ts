import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LogFields, Logger } from '../logging/logger.std.ts';
import { JOURNAL_FILE, openLockJournal, type LockEntry } from './lock-journal.node.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lock-journal-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const entry = (voucherUuid: string, overrides: Partial<LockEntry> = {}): LockEntry => ({
  voucherUuid,
  code: `CODE-${voucherUuid}`,
  releaseKey: `key-${voucherUuid}`,
  timesRedeemedBefore: 0,
  lockedAt: '2030-01-01T10:00:00+00:00',
  systemReleaseAt: '2030-01-01T11:00:00+00:00',
  phase: 'locked',
  ...overrides,
});

function recordingLogger(lines: Array<{ level: string; message: string; fields?: LogFields }>): Logger {
  const at = (level: string) => (message: string, fields?: LogFields) => void lines.push({ level, message, fields });
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: () => logger };
  return logger;
}

const silent = recordingLogger([]);

describe('lock journal', () => {
  it('keeps every change on disk for the next start, in a private file, with no temp file left', async () => {
    const journal = await openLockJournal({ dir, logger: silent });
    await Promise.all([journal.put(entry('a')), journal.put(entry('b')), journal.put(entry('c'))]);
    await journal.put(entry('b', { phase: 'redeeming', contactUuid: 'contact-1' }));
    await journal.remove('a');

    const reopened = await openLockJournal({ dir, logger: silent });
    expect(reopened.entries()).toEqual([entry('b', { phase: 'redeeming', contactUuid: 'contact-1' }), entry('c')]);
    expect(await readdir(dir)).toEqual([JOURNAL_FILE]);
    if (process.platform !== 'win32') expect((await stat(journal.path)).mode & 0o777).toBe(0o600);
  });

  it('starts empty without a file, and creates its folder', async () => {
    const journal = await openLockJournal({ dir: join(dir, 'nested', 'state'), logger: silent });
    expect(journal.entries()).toEqual([]);
    await journal.put(entry('a'));
    expect(JSON.parse(await readFile(journal.path, 'utf8'))).toEqual({ version: 1, entries: [entry('a')] });
  });

  it.each([
    ['not JSON', '{"version": 1, "entries": ['],
    ['not a lock journal', JSON.stringify({ version: 1, entries: [{ voucherUuid: 'a', releaseKey: 'secret-key' }] })],
  ])('moves a file that is %s aside, logs it without its content and starts empty', async (reason, content) => {
    await writeFile(join(dir, JOURNAL_FILE), content);
    const lines: Parameters<typeof recordingLogger>[0] = [];
    const journal = await openLockJournal({ dir, logger: recordingLogger(lines) });

    expect(journal.entries()).toEqual([]);
    const aside = (await readdir(dir)).filter((name) => name.startsWith(`${JOURNAL_FILE}.corrupt-`));
    expect(aside).toHaveLength(1);
    expect(await readFile(join(dir, aside[0]!), 'utf8')).toBe(content);
    expect(lines).toEqual([{ level: 'warn', message: expect.stringMatching(/moved aside/), fields: expect.objectContaining({ reason }) }]);
    expect(JSON.stringify(lines)).not.toContain('secret-key');

    await journal.put(entry('a'));
    expect((await openLockJournal({ dir, logger: silent })).entries()).toEqual([entry('a')]);
  });
});
