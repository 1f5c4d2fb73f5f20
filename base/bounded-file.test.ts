import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBoundedFile } from './bounded-file.node.ts';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-bounded-'));

describe('readBoundedFile', () => {
  it('reads a file within its bound whole, as bytes and text; an absent one is missing', () => {
    const file = path.join(tempDir(), 'state.json');
    expect(readBoundedFile(file, 16)).toEqual({ kind: 'missing' });
    fs.writeFileSync(file, '{"a":"é"}');
    const read = readBoundedFile(file, 10);
    expect(read).toMatchObject({ kind: 'read', text: '{"a":"é"}' });
    expect(read.kind === 'read' && read.bytes.length).toBe(10);
  });

  it('refuses a file over its bound by its size, without reading it: a sparse 2 GB file costs nothing', () => {
    const file = path.join(tempDir(), 'health-counters.json');
    fs.writeFileSync(file, '');
    fs.truncateSync(file, 2 * 1024 ** 3);
    const before = process.memoryUsage().arrayBuffers;
    expect(readBoundedFile(file, 64 * 1024)).toEqual({ kind: 'refused', reason: 'too large (over 65536 bytes)' });
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(1024 ** 2);
    fs.truncateSync(file, 11);
    expect(readBoundedFile(file, 10)).toEqual({ kind: 'refused', reason: 'too large (over 10 bytes)' });
    expect(readBoundedFile(file, 11)).toMatchObject({ kind: 'read' });
  });

  it('follows no link and waits on no FIFO: both are refused, the link target never read', () => {
    const dir = tempDir();
    const target = path.join(dir, 'secret');
    fs.writeFileSync(target, '{}');
    fs.symlinkSync(target, path.join(dir, 'link.json'));
    expect(readBoundedFile(path.join(dir, 'link.json'), 1024)).toEqual({ kind: 'refused', reason: 'a symbolic link' });
    expect(readBoundedFile(dir, 1024)).toEqual({ kind: 'refused', reason: 'not a regular file' });
    if (process.platform === 'win32') return;
    // A FIFO opened for reading would block until a writer came.
    const fifo = path.join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    expect(readBoundedFile(fifo, 1024)).toEqual({ kind: 'refused', reason: 'not a regular file' });
  });
});
