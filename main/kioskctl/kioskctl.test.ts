import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The real command, the way an installer script runs it.
function kioskctl(dataDir: string, ...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'main/kioskctl/kioskctl.node.ts', '--data', dataDir, ...args], {
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'kioskctl-'));

describe('kioskctl config', () => {
  it('shows every setting with its default on a fresh data folder', () => {
    const shown = kioskctl(tempDir(), 'config', 'show');
    expect(shown.code).toBe(0);
    const config = JSON.parse(shown.stdout);
    expect(config.kiosk.mode).toBe('regular');
    expect(config.session.scanner_type).toBe('camera');
    expect(config.idle.timeoutSeconds).toBe(60);
  });

  it('sets a value typed from text and reads it back', () => {
    const dir = tempDir();
    const set = kioskctl(dir, 'config', 'set', 'scanner.serial.baudRate', '115200');
    expect(set).toMatchObject({ code: 0, stdout: 'scanner.serial.baudRate = 115200\n' });
    expect(kioskctl(dir, 'config', 'get', 'scanner.serial.baudRate').stdout).toBe('115200\n');
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).scanner.serial.baudRate).toBe(115200);
  });

  it('refuses an invalid value with exit code 2 and writes nothing', () => {
    const dir = tempDir();
    kioskctl(dir, 'config', 'set', 'kiosk.mode', 'vouchers');
    const before = fs.readFileSync(path.join(dir, 'config.json'), 'utf8');
    const refused = kioskctl(dir, 'config', 'set', 'session.camera_service', '7');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/session\.camera_service/);
    expect(refused.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
    expect(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it('refuses unknown keys, unknown commands and missing arguments with exit code 2', () => {
    const dir = tempDir();
    expect(kioskctl(dir, 'config', 'set', 'no.such.key', '1')).toMatchObject({ code: 2, stderr: expect.stringMatching(/unknown setting "no.such.key"/) });
    expect(kioskctl(dir, 'config', 'frobnicate').code).toBe(2);
    expect(kioskctl(dir, 'config', 'set', 'kiosk.mode')).toMatchObject({ code: 2, stderr: expect.stringMatching(/<key> <value>/) });
    expect(kioskctl(dir, '--bogus').code).toBe(2);
  });

  it('lists the settable keys, the same names the issues use', () => {
    const keys = kioskctl(tempDir(), 'config', 'keys').stdout.trim().split('\n');
    expect(keys).toEqual(expect.arrayContaining(['api.baseUrl', 'session.primary_identification_method', 'scanner.serial.terminator', 'manager.pinHash']));
  });
});
