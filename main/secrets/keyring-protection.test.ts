import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keyringProtection } from './keyring-protection.node.ts';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-keyring-protection-'));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

function runDirSaying(text: string): string {
  const dir = fs.mkdtempSync(path.join(scratch, 'run-'));
  fs.writeFileSync(path.join(dir, 'keyring-protection'), text);
  return dir;
}

describe('keyringProtection (doctor\'s keychain line, #34 §1)', () => {
  it('names the TPM2 or the host key the boot credential was sealed with', () => {
    expect(keyringProtection(runDirSaying('tpm2\n'))).toBe('unlocked at boot by a machine credential sealed with the TPM2');
    expect(keyringProtection(runDirSaying('host\n'))).toBe('unlocked at boot by a machine credential sealed with the host key (no TPM2)');
  });

  it('says so when the boot handed over no credential, or one it cannot name', () => {
    expect(keyringProtection(path.join(scratch, 'absent'))).toBe('unlocked by the desktop session (no boot credential)');
    expect(keyringProtection(runDirSaying('unknown\n'))).toBe('unlocked at boot by a machine credential of unknown protection');
  });
});
