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

  it('writes synchronously the same way: whole, owner-only, no temp file left', () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, 'old', { mode: 0o644 });
    writeFileDurablySync(file, 'new');
    expect(fs.readFileSync(file, 'utf8')).toBe('new');
    expect(modeOf(file)).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });
});
