import crypto from 'node:crypto';
import fs from 'node:fs';
import { SETUP_CODE_DIGITS } from '../../common/input-rules.std.ts';
import { writeFileDurablySync } from '../../base/durable-file.node.ts';
import { dataFiles } from '../paths/data-files.node.ts';
import type { ConfigStore } from '../config/config-store.node.ts';

const WELL_FORMED = new RegExp(`^\\d{${SETUP_CODE_DIGITS}}$`);

/**
 * A fresh kiosk's setup code (#34 §2): the first-run wizard opens only with it, so nobody at the
 * screen can take over a kiosk by touch alone. It lives in the data folder, readable by the kiosk's
 * user only, and is shown where only IT or the installer looks: `kioskctl setup-code` and the
 * host's own start in its terminal; never in a log. IT may choose it instead, in the provisioning
 * file (`manager.setupCode`): then that one opens the wizard.
 */
export function setupCode(dataDir: string, config?: ConfigStore): string {
  const chosen = config?.get().manager.setupCode;
  if (chosen) return chosen;
  const file = dataFiles(dataDir).setupCode;
  const stored = readCode(file);
  if (stored) return stored;
  const code = String(crypto.randomInt(0, 10 ** SETUP_CODE_DIGITS)).padStart(SETUP_CODE_DIGITS, '0');
  writeFileDurablySync(file, `${code}\n`);
  return code;
}

/** Whether `typed` is the setup code, compared in constant time. */
export function isSetupCode(dataDir: string, typed: string, config?: ConfigStore): boolean {
  const code = Buffer.from(setupCode(dataDir, config));
  const given = Buffer.from(typed);
  return given.length === code.length && crypto.timingSafeEqual(given, code);
}

function readCode(file: string): string | null {
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    return WELL_FORMED.test(text) ? text : null;
  } catch {
    return null;
  }
}

/**
 * The line a host writes to its own terminal at start while the kiosk is fresh (the demo, no PIN):
 * whoever started it is IT or the installer, and a newcomer trying `npm start` finds the code there.
 * Not the code itself when the output is the journal (`toJournal`), which more people read.
 * Empty once a PIN is set or a platform is configured.
 */
export function firstRunNotice(dataDir: string, config: ConfigStore, toJournal: boolean): string {
  if (config.get().manager.pinHash !== null || !config.isDemo()) return '';
  if (toJournal) return 'Console setup code (first run): kioskctl setup-code prints it\n';
  return `Console setup code (first run; also: kioskctl setup-code): ${setupCode(dataDir, config)}\n`;
}
