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
