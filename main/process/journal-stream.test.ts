import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writesToJournal } from './journal-stream.node.ts';

const opened: number[] = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-stream-'));

afterEach(() => opened.splice(0).forEach((fd) => fs.closeSync(fd)));

function openFile(name: string) {
  const fd = fs.openSync(path.join(dir, name), 'w');
  opened.push(fd);
  const { dev, ino } = fs.fstatSync(fd);
  return { fd, stream: `${dev}:${ino}` };
}

describe('writesToJournal', () => {
  it('is true only for the very stream JOURNAL_STREAM names', () => {
    const journal = openFile('journal');
    const other = openFile('other');
    expect(writesToJournal(journal.fd, { JOURNAL_STREAM: journal.stream })).toBe(true);
    // A child of the unit inherits the variable, but its stdout is a pipe or a file of its own.
    expect(writesToJournal(other.fd, { JOURNAL_STREAM: journal.stream })).toBe(false);
  });

  it('is false with no JOURNAL_STREAM, a malformed one, or a closed descriptor', () => {
    const journal = openFile('journal');
    expect(writesToJournal(journal.fd, {})).toBe(false);
    expect(writesToJournal(journal.fd, { JOURNAL_STREAM: `${journal.stream}x` })).toBe(false);
    expect(writesToJournal(journal.fd, { JOURNAL_STREAM: 'nonsense' })).toBe(false);
    fs.closeSync(opened.pop()!);
    expect(writesToJournal(journal.fd, { JOURNAL_STREAM: journal.stream })).toBe(false);
  });
});
