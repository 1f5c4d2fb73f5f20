import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, FileLogSink } from './file-logger.node.ts';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-logs-'));

describe('file logger', () => {
  it('never writes a secret, a full voucher code or an e-mail address', () => {
    const sink = new FileLogSink({ dir: tempDir() });
    sink.redactor.addSecret('fake-test-key-0123456789');
    const logger = createLogger(sink);
    logger.info('calling with Bearer fake-test-key-0123456789 for jane.doe@example.com', {
      apiKey: 'fake-test-key-0123456789',
      code: 'KOFFIE2024',
      nested: { email: 'jane.doe@example.com', note: 'token fake-test-key-0123456789 leaked' },
    });
    const text = fs.readFileSync(sink.file, 'utf8');
    expect(text).not.toContain('fake-test-key-0123456789');
    expect(text).not.toContain('KOFFIE2024');
    expect(text).not.toContain('jane.doe@example.com');
    expect(text).toContain('2024');
    expect(text).toContain('j•••@example.com');
  });

  it('masks codes and card numbers a renderer error quotes in its free text', () => {
    const sink = new FileLogSink({ dir: tempDir() });
    // As reportRendererError logs it: the message is whatever the page's error said.
    createLogger(sink).error('renderer error', {
      message: 'TypeError: no voucher KOFFIE24 for card 2710042000132 (kf9r4tbz)',
      where: 'VoucherScreen',
    });
    const text = fs.readFileSync(sink.file, 'utf8');
    for (const full of ['KOFFIE24', '2710042000132', 'kf9r4tbz']) expect(text).not.toContain(full);
    expect(JSON.parse(text)).toMatchObject({
      message: 'TypeError: no voucher •••IE24 for card •••0132 (•••4tbz)',
      where: 'VoucherScreen',
    });
  });

  it('rotates by size and keeps a bounded number of files', () => {
    const dir = tempDir();
    const logger = createLogger(new FileLogSink({ dir, maxBytes: 500, keep: 2 }));
    for (let i = 0; i < 60; i += 1) logger.info(`line ${i} ${'x'.repeat(40)}`);
    const files = fs.readdirSync(dir).sort();
    expect(files).toEqual(['kiosk.1.log', 'kiosk.2.log', 'kiosk.log']);
    for (const file of files) expect(fs.statSync(path.join(dir, file)).size).toBeLessThanOrEqual(500);
    expect(fs.readFileSync(path.join(dir, 'kiosk.log'), 'utf8')).toContain('line 59');
  });

  it('hands over every file it keeps, oldest first, for a diagnostics export', () => {
    const dir = tempDir();
    const sink = new FileLogSink({ dir, maxBytes: 500, keep: 2 });
    const logger = createLogger(sink);
    for (let i = 0; i < 60; i += 1) logger.info(`line ${i} ${'x'.repeat(40)}`);
    const files = sink.files();
    expect(files.map((file) => file.name)).toEqual(['kiosk.2.log', 'kiosk.1.log', 'kiosk.log']);
    const lines = files.flatMap((file) => file.text.trimEnd().split('\n').map((line) => Number(/line (\d+)/.exec(line)![1])));
    // Oldest first and without a gap: the newest lines of every kept file, up to the last one written.
    expect(lines).toEqual(Array.from({ length: lines.length }, (_, n) => 60 - lines.length + n));
  });
});

describe('file logger on a disk that fails', () => {
  const lines = (logger: ReturnType<typeof createLogger>, count: number) => {
    for (let i = 0; i < count; i += 1) logger.warn(`line ${i}`, { apiKey: 'never-written-key' });
  };

  it('drops and counts lines a full disk refuses, and never throws', () => {
    const dir = tempDir();
    // The full device itself as the log (/dev/full's major and minor): a link to it is not followed.
    execFileSync('mknod', [path.join(dir, 'kiosk.log'), 'c', '1', '7']);
    const sink = new FileLogSink({ dir });
    expect(() => lines(createLogger(sink), 3)).not.toThrow();
    expect(sink.drops()).toEqual({ droppedLines: 3, lastProblem: 'ENOSPC' });
    expect(sink.tail(10)).toEqual([]);
    expect(sink.files()).toEqual([]);
  });

  it('starts with a file where its folder should be, and counts every line it cannot write', () => {
    const blocked = path.join(tempDir(), 'logs');
    fs.writeFileSync(blocked, 'not a folder');
    let sink: FileLogSink | undefined;
    expect(() => (sink = new FileLogSink({ dir: blocked }))).not.toThrow();
    lines(createLogger(sink!), 4);
    expect(sink!.drops()).toMatchObject({ droppedLines: 4, lastProblem: expect.stringMatching(/^E[A-Z]+$/) });
    expect(sink!.tail(10)).toEqual([]);
  });

  it('counts no drops while the disk works', () => {
    const sink = new FileLogSink({ dir: tempDir() });
    lines(createLogger(sink), 2);
    expect(sink.drops()).toEqual({ droppedLines: 0, lastProblem: null });
    expect(sink.tail(10)).toHaveLength(2);
  });
});

describe('file logger permissions', () => {
  const mode = (file: string) => fs.statSync(file).mode & 0o777;

  it('writes every log file readable by the kiosk user only, rotated ones included', () => {
    const dir = tempDir();
    const previous = process.umask(0o022);
    try {
      const logger = createLogger(new FileLogSink({ dir, maxBytes: 300, keep: 2 }));
      for (let i = 0; i < 20; i += 1) logger.info(`line ${i} ${'x'.repeat(40)}`);
    } finally {
      process.umask(previous);
    }
    const files = fs.readdirSync(dir).sort();
    expect(files).toEqual(['kiosk.1.log', 'kiosk.2.log', 'kiosk.log']);
    for (const file of files) expect(mode(path.join(dir, file))).toBe(0o600);
  });

  it('narrows a log file an older version left readable to others', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'kiosk.log'), '', { mode: 0o644 });
    fs.chmodSync(path.join(dir, 'kiosk.log'), 0o644);
    createLogger(new FileLogSink({ dir })).info('started');
    expect(mode(path.join(dir, 'kiosk.log'))).toBe(0o600);
  });

  it('never follows a link planted as kiosk.log: the target is neither chmodded, written nor exported (#20 §10)', () => {
    const dir = tempDir();
    const target = path.join(tempDir(), 'elsewhere.txt');
    fs.writeFileSync(target, 'not the kiosk\'s\n', { mode: 0o644 });
    fs.chmodSync(target, 0o644);
    fs.symlinkSync(target, path.join(dir, 'kiosk.log'));
    const sink = new FileLogSink({ dir });
    createLogger(sink).info('started');
    expect(fs.readFileSync(target, 'utf8')).toBe('not the kiosk\'s\n');
    expect(mode(target)).toBe(0o644);
    // Dropped and counted (ELOOP), as any line the disk refuses.
    expect(sink.drops()).toMatchObject({ droppedLines: 1, lastProblem: 'ELOOP' });
    expect(sink.files()).toEqual([]);
    expect(sink.tail(5)).toEqual([]);
  });
});
