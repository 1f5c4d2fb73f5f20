import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileDurably, writeFileDurablySync } from './durable-file.node.ts';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-durable-'));
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('writeFileDurably', () => {
  it('leaves the file readable by its owner only, also where a crash left a temp file readable to all', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'lock-journal.json');
    fs.writeFileSync(`${file}.tmp`, 'half a write', { mode: 0o644 });
    fs.chmodSync(`${file}.tmp`, 0o644);
    await writeFileDurably(file, '{"entries":[]}');
    expect(fs.readFileSync(file, 'utf8')).toBe('{"entries":[]}');
    expect(modeOf(file)).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['lock-journal.json']);
  });

  it('writes the same file twice at once one after the other: both resolve, the later text stays', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'voucher-locks.json');
    await Promise.all([writeFileDurably(file, 'first'), writeFileDurably(file, 'second')]);
    expect(fs.readFileSync(file, 'utf8')).toBe('second');
    expect(fs.readdirSync(dir)).toEqual(['voucher-locks.json']);
  });

  it('writes synchronously the same way: whole, owner-only, no temp file left', () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, 'old', { mode: 0o644 });
    writeFileDurablySync(file, 'new');
    expect(fs.readFileSync(file, 'utf8')).toBe('new');
    expect(modeOf(file)).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });

  it('writes through no link planted as its temp file: its target is untouched, the file is a file (#28 §12)', async () => {
    const dir = tempDir();
    const target = path.join(dir, 'elsewhere.txt');
    fs.writeFileSync(target, 'not the kiosk\'s');
    const asyncFile = path.join(dir, 'health-counters.json');
    fs.symlinkSync(target, `${asyncFile}.tmp`);
    await writeFileDurably(asyncFile, '{"since":1}');
    const syncFile = path.join(dir, 'fleet-commands.json');
    fs.symlinkSync(target, `${syncFile}.tmp-${process.pid}`);
    writeFileDurablySync(syncFile, '[]');
    expect(fs.readFileSync(target, 'utf8')).toBe('not the kiosk\'s');
    for (const [file, text] of [[asyncFile, '{"since":1}'], [syncFile, '[]']] as const) {
      expect(fs.lstatSync(file).isFile()).toBe(true);
      expect(fs.readFileSync(file, 'utf8')).toBe(text);
      expect(modeOf(file)).toBe(0o600);
    }
    expect(fs.readdirSync(dir).sort()).toEqual(['elsewhere.txt', 'fleet-commands.json', 'health-counters.json']);
  });
});
