import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FailedVersion, readJsonFile, readKeptInstaller, updateFiles } from './update-files.node.ts';

const failed = { version: '1.2.0', reason: 'did not reach attract', at: 1 };

describe('update files as read back', () => {
  it('reads a file through its schema, within its bound; a larger one, or a link in its place, is no file (#28 §12)', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'update-files-'));
    const files = updateFiles(dataDir);
    fs.mkdirSync(path.dirname(files.failedVersion));
    fs.writeFileSync(files.failedVersion, JSON.stringify(failed));
    expect(readJsonFile(files.failedVersion, FailedVersion)).toEqual(failed);

    fs.writeFileSync(files.failedVersion, JSON.stringify({ ...failed, reason: 'x'.repeat(100 * 1024) }));
    expect(readJsonFile(files.failedVersion, FailedVersion)).toBeNull();

    const elsewhere = path.join(dataDir, 'elsewhere.json');
    fs.writeFileSync(elsewhere, JSON.stringify({ version: '1.1.0', file: 'kiosk.AppImage', replaces: null }));
    fs.mkdirSync(files.previousDir);
    fs.symlinkSync(elsewhere, path.join(files.previousDir, 'installer.json'));
    expect(readKeptInstaller(files.previousDir)).toBeNull();
  });
});
