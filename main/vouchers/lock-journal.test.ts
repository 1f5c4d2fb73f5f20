import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/logger.std.ts';
import { DATA_FILES } from '../paths/data-files.node.ts';
import { openLockJournal, type HeldLockEntry } from './lock-journal.node.ts';
import { recordingLogger } from '../../test/support/factories.std.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lock-journal-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const entry = (voucherUuid: string, overrides: Partial<HeldLockEntry> = {}): HeldLockEntry => ({
  voucherUuid,
  code: `CODE-${voucherUuid}`,
  releaseKey: `key-${voucherUuid}`,
  timesRedeemedBefore: 0,
  lockedAt: '2030-01-01T10:00:00+00:00',
  systemReleaseAt: '2030-01-01T11:00:00+00:00',
  phase: 'locked',
  ...overrides,
});

describe('lock journal', () => {
  it('keeps every change on disk for the next start, in a private file, with no temp file left', async () => {
    const journal = await openLockJournal({ dir, logger: silentLogger });
    await Promise.all([journal.put(entry('a')), journal.put(entry('b')), journal.put(entry('c'))]);
    await journal.put(entry('b', { phase: 'redeeming', contactUuid: 'contact-1' }));
    await journal.remove('a');

    const reopened = await openLockJournal({ dir, logger: silentLogger });
    expect(reopened.entries()).toEqual([entry('b', { phase: 'redeeming', contactUuid: 'contact-1' }), entry('c')]);
    expect(await readdir(dir)).toEqual([DATA_FILES.voucherLocks]);
    if (process.platform !== 'win32') expect((await stat(journal.path)).mode & 0o777).toBe(0o600);
  });

  it('starts empty without a file, and creates its folder', async () => {
    const journal = await openLockJournal({ dir: join(dir, 'nested', 'state'), logger: silentLogger });
    expect(journal.entries()).toEqual([]);
    await journal.put(entry('a'));
    expect(JSON.parse(await readFile(journal.path, 'utf8'))).toEqual({ version: 1, entries: [entry('a')] });
  });

  it.each([
    ['not JSON', '{"version": 1, "entries": ['],
    ['not a lock journal', JSON.stringify({ version: 1, entries: [{ voucherUuid: 'a', releaseKey: 'secret-key' }] })],
  ])('moves a file that is %s aside, logs it without its content and starts empty', async (reason, content) => {
    await writeFile(join(dir, DATA_FILES.voucherLocks), content);
    const { logger, lines } = recordingLogger();
    const journal = await openLockJournal({ dir, logger });

    expect(journal.entries()).toEqual([]);
    const aside = (await readdir(dir)).filter((name) => name.startsWith(`${DATA_FILES.voucherLocks}.corrupt-`));
    expect(aside).toHaveLength(1);
    expect(await readFile(join(dir, aside[0]!), 'utf8')).toBe(content);
    expect(lines[0]).toEqual(expect.objectContaining({ level: 'warn', fields: expect.objectContaining({ event: 'voucher.journal_set_aside', reason }) }));
    expect(JSON.stringify(lines)).not.toContain('secret-key');

    await journal.put(entry('a'));
    expect((await openLockJournal({ dir, logger: silentLogger })).entries()).toEqual([entry('a')]);
  });

  it('moves a journal larger than any a kiosk writes aside unread, like a damaged one, and starts empty (#28 §12)', async () => {
    const huge = { version: 1, entries: Array.from({ length: 25_000 }, (_, index) => entry(`voucher-${index}`)) };
    await writeFile(join(dir, DATA_FILES.voucherLocks), JSON.stringify(huge));
    const { logger, lines } = recordingLogger();
    const journal = await openLockJournal({ dir, logger });

    expect(journal.entries()).toEqual([]);
    const aside = (await readdir(dir)).filter((name) => name.startsWith(`${DATA_FILES.voucherLocks}.corrupt-`));
    expect(aside).toHaveLength(1);
    expect((await stat(join(dir, aside[0]!))).size).toBe(JSON.stringify(huge).length);
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', fields: expect.objectContaining({ event: 'voucher.journal_set_aside', reason: expect.stringMatching(/too large/), kept: [] }) })]);
  });

  it('keeps every entry still legible in a truncated journal, on disk at once, and logs the uuids it cannot look up', async () => {
    const intact = [entry('a'), entry('b', { phase: 'redeeming', timesRedeemedBefore: 2 }), entry('c'), entry('d')];
    const text = `${JSON.stringify({ version: 1, entries: intact }, null, 2)}\n`;
    // Cut inside c's release key (its code is legible), leaving d's uuid alone past a damaged stretch.
    const cut = text.indexOf('key-c') + 3;
    const damaged = `${text.slice(0, cut)}\u0000\u0000{"voucherUuid": "d"`;
    await writeFile(join(dir, DATA_FILES.voucherLocks), damaged);
    const { logger, lines } = recordingLogger();
    const journal = await openLockJournal({ dir, logger });

    expect(journal.entries()).toEqual([
      entry('a'),
      entry('b', { phase: 'redeeming', timesRedeemedBefore: 2 }),
      { voucherUuid: 'c', code: 'CODE-c', timesRedeemedBefore: 0, phase: 'locking', intendedAt: expect.any(String) },
    ]);
    // The bad file is aside, so what was read from it is written anew before anything else.
    expect((await openLockJournal({ dir, logger: silentLogger })).entries()).toEqual(journal.entries());
    expect((await readdir(dir)).filter((name) => name.includes('.corrupt-'))).toHaveLength(1);
    expect(lines.map((line) => line.fields)).toEqual([
      expect.objectContaining({ kept: [{ voucherUuid: 'a', phase: 'locked' }, { voucherUuid: 'b', phase: 'redeeming' }, { voucherUuid: 'c', phase: 'locking' }] }),
      { voucherUuids: ['d'] },
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/key-|CODE-/);
  });

  it('keeps, at every point a journal can be cut, each voucher whose uuid is whole before the cut (#20 §11)', async () => {
    const uuids = ['3f2b8c1e-9a4d-4e6f-8b1a-2c3d4e5f6a7b', 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d'];
    const text = `${JSON.stringify({ version: 1, entries: uuids.map((uuid) => entry(uuid)) }, null, 2)}\n`;
    const lost: number[] = [];
    for (let cut = 0; cut < text.length; cut++) {
      const kept = text.slice(0, cut);
      await writeFile(join(dir, DATA_FILES.voucherLocks), kept);
      const journal = await openLockJournal({ dir, logger: silentLogger });
      const known = [...journal.entries().map((held) => held.voucherUuid), ...journal.unresolved()];
      // A uuid is whole once its last character is in: its closing quote may be cut off.
      const whole = uuids.filter((uuid) => kept.includes(`"voucherUuid": "${uuid}`));
      if (known.sort().join() !== whole.sort().join()) lost.push(cut);
      await rm(join(dir, DATA_FILES.voucherLocks), { force: true });
    }
    expect(lost).toEqual([]);
  });

  it('takes an entry whose phase was lost as redeeming: its redemption is looked for before any release', async () => {
    const text = JSON.stringify({ version: 1, entries: [entry('a', { phase: 'redeeming' })] }, null, 2);
    await writeFile(join(dir, DATA_FILES.voucherLocks), text.slice(0, text.indexOf('"phase"')));
    const journal = await openLockJournal({ dir, logger: silentLogger });
    expect(journal.entries()).toEqual([entry('a', { phase: 'redeeming' })]);
  });

  it('keeps a lock whose count under it had not arrived as a plain lock, its key and all, whether its phase was lost or not', async () => {
    const text = JSON.stringify({ version: 1, entries: [entry('a', { timesRedeemedBefore: null })] }, null, 2);
    for (const cut of [text.indexOf('"phase"'), text.length - 3]) {
      await writeFile(join(dir, DATA_FILES.voucherLocks), text.slice(0, cut));
      const journal = await openLockJournal({ dir, logger: silentLogger });
      expect(journal.entries()).toEqual([entry('a', { timesRedeemedBefore: null })]);
    }
  });
});
