import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordingLogger, type LogLine } from '../../test/support/factories.std.ts';
import { commandMemory } from './command-memory.node.ts';

describe('fleet command memory', () => {
  it('reads back answers by their schema: a damaged answer keeps its command as received, never to run again', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'command-memory-')), 'fleet-commands.json');
    fs.writeFileSync(
      file,
      JSON.stringify([
        { key: 'restart\nr-1', answer: { id: 'r-1', ok: true, result: null } },
        { key: 'restart\nr-2', answer: { id: 'r-2', ok: 'yes', error: 7 } },
        { key: 'doctor\nd-1', answer: null },
      ]),
    );
    const lines: LogLine[] = [];
    const memory = commandMemory(file, recordingLogger(lines).logger);
    expect(memory.recall('restart', 'r-1')).toEqual({ id: 'r-1', ok: true, result: null, replayed: true });
    expect(memory.recall('restart', 'r-2')).toEqual({ id: 'r-2', ok: false, error: 'already received: not run again', replayed: true });
    expect(memory.recall('doctor', 'd-1')).toMatchObject({ ok: false, replayed: true });
    expect(memory.recall('restart', 'r-3')).toBeUndefined();
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', fields: { event: 'fleet.memory.answers_unreadable', unreadable: 1 } })]);
  });

  it('starts afresh, and says so, from a file larger than the memory ever is (#28 §12)', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'command-memory-')), 'fleet-commands.json');
    const answer = { id: 'r-1', ok: true, result: 'x'.repeat(4 * 1024 * 1024) };
    fs.writeFileSync(file, JSON.stringify([{ key: 'restart\nr-1', answer }]));
    const lines: LogLine[] = [];
    const memory = commandMemory(file, recordingLogger(lines).logger);
    expect(memory.recall('restart', 'r-1')).toBeUndefined();
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', fields: { event: 'fleet.memory.unreadable', error: expect.stringMatching(/too large/) } })]);
  });
});
