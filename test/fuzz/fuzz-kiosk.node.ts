import crypto from 'node:crypto';
import { setupCode } from '../../main/manager/setup-code.node.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BridgeConnection } from '../../main/bridge/dispatcher.std.ts';
import { startKioskServices, type KioskServices } from '../../main/kiosk-services.node.ts';
import { silentLogger } from '../../main/logging/logger.std.ts';
import { KeytarSecretStore, SECRET_NAMES } from '../../main/secrets/secret-store.node.ts';

export const FUZZ_PIN = '97531864';

export interface FuzzKiosk {
  services: KioskServices;
  /** How often the fuzzed calls restarted or quit the (fake) host. */
  hostCalls: { restart: number; quit: number };
  /** Every promise rejection nobody handled while the kiosk ran. */
  unhandled: unknown[];
  close(): Promise<void>;
}

/**
 * Real demo services for a bridge fuzz suite: their own data folder and keychain service, a
 * console PIN set (FUZZ_PIN), a host that only counts restarts and quits, and a watch for
 * unhandled rejections.
 */
export async function startFuzzKiosk(): Promise<FuzzKiosk> {
  const keychainService = `loyalty-kiosk-test-${crypto.randomUUID()}`;
  const hostCalls = { restart: 0, quit: 0 };
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', record);
  const services = await startKioskServices({
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-bridge-fuzz-')),
    version: 'test',
    keychainService,
    host: { restart: () => void hostCalls.restart++, quit: () => void hostCalls.quit++ },
  });
  const setup = new BridgeConnection('setup');
  await services.dispatch('startSetup', { code: setupCode(services.dataDir) }, setup);
  await services.dispatch('setManagerPin', { pin: FUZZ_PIN }, setup);
  return {
    services,
    hostCalls,
    unhandled,
    async close() {
      process.off('unhandledRejection', record);
      await services.close();
      const secrets = new KeytarSecretStore({ logger: silentLogger, service: keychainService });
      for (const name of SECRET_NAMES) await secrets.remove(name).catch(() => {});
    },
  };
}
