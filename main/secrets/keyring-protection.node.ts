import fs from 'node:fs';
import path from 'node:path';

/** Where the boot's keyring-handoff leaves the machine credential (build/boot/keyring-handoff). */
const BOOT_RUN_DIR = '/run/loyalty-kiosk';

/**
 * How the keychain was unlocked, for `doctor`: by the machine credential the boot handed over
 * (which protection sealed it), or by whoever opened the desktop session.
 */
export function keyringProtection(runDir = process.env.LOYALTY_KIOSK_RUN_DIR ?? BOOT_RUN_DIR): string {
  let sealedWith: string;
  try {
    sealedWith = fs.readFileSync(path.join(runDir, 'keyring-protection'), 'utf8').trim();
  } catch {
    return 'unlocked by the desktop session (no boot credential)';
  }
  if (sealedWith === 'tpm2') return 'unlocked at boot by a machine credential sealed with the TPM2';
  if (sealedWith === 'host') return 'unlocked at boot by a machine credential sealed with the host key (no TPM2)';
  return 'unlocked at boot by a machine credential of unknown protection';
}
