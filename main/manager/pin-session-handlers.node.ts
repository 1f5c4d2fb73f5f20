import type { CallHandlers } from '../bridge/dispatcher.std.ts';
import type { ConfigStore } from '../config/config-store.node.ts';
import type { Logger } from '../logging/logger.std.ts';
import type { ConsoleSession } from './console-session.node.ts';
import { hashPin } from './pin-hash.node.ts';

/** The PIN pad's calls and setting the PIN: each answers with this connection's console status. */
export function createPinSessionHandlers({ session, config, logger }: { session: ConsoleSession; config: ConfigStore; logger: Logger }) {
  return {
    managerStatus: async (_input, connection) => session.status(connection),
    unlockManager: ({ pin }, connection) => session.unlock(pin, connection),
    lockManager: async (_input, connection) => {
      session.lock(connection);
      return null;
    },
    setManagerPin: async ({ pin }, connection) => {
      // A first run that could not read the keychain: whatever it holds is checked once it can be read.
      const unchecked = (await session.status(connection)).setupDemoOnly;
      config.set('manager.pinHash', await hashPin(pin));
      if (unchecked) config.set('manager.secretsUnchecked', true);
      session.keepOpen(connection);
      logger.info('manager PIN set');
      return session.status(connection);
    },
  } satisfies Partial<CallHandlers>;
}
