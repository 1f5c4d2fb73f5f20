import type { CallHandlers } from '../bridge/dispatcher.std.ts';
import type { ConsoleSession } from '../manager/console-session.node.ts';

/** The PIN pad's calls and setting the PIN: each answers with this connection's console status. */
export function createPinSessionHandlers({ session }: { session: ConsoleSession }) {
  return {
    managerStatus: async (_input, connection) => session.status(connection),
    unlockManager: ({ pin }, connection) => session.unlock(pin, connection),
    startSetup: ({ code }, connection) => session.startSetup(code, connection),
    lockManager: async (_input, connection) => {
      session.lock(connection);
      return null;
    },
    setManagerPin: ({ pin }, connection) => session.setPin(pin, connection),
  } satisfies Partial<CallHandlers>;
}
