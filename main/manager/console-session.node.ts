import type { BridgeConnection, ConsoleGate } from '../bridge/dispatcher.std.ts';
import { BridgeFailure } from '../bridge/dispatcher.std.ts';
import type { ConfigStore } from '../config/config-store.node.ts';
import type { Logger } from '../logging/logger.std.ts';
import type { SecretStore } from '../secrets/secret-store.node.ts';
import { CONSOLE_TIMEOUT_MS, type ManagerStatus } from '../../common/manager-views.std.ts';
import type { ManagerCallName } from '../../common/contract.std.ts';
import { verifyPin } from './pin-hash.node.ts';
import { PinLockout } from './pin-lockout.node.ts';

/** Each bridge connection's console session: the PIN pad's state, and the gate every manager call passes. */
export interface ConsoleSession extends ConsoleGate {
  status(connection: BridgeConnection): Promise<ManagerStatus>;
  /** Checks the PIN; a wrong one is counted and answered with the status, not refused. */
  unlock(pin: string, connection: BridgeConnection): Promise<ManagerStatus>;
  lock(connection: BridgeConnection): void;
  /** Opens (or extends) this connection's session for CONSOLE_TIMEOUT_MS. */
  keepOpen(connection: BridgeConnection): void;
}

/**
 * The PIN is checked here, in main, not in the renderer, and a session belongs to the bridge
 * connection that unlocked it: another window or WebSocket stays locked.
 */
export function createConsoleSession(options: {
  dataDir: string;
  config: ConfigStore;
  secrets: SecretStore;
  logger: Logger;
  now?: () => number;
}): ConsoleSession {
  const { config, secrets, logger, now = Date.now } = options;
  const lockout = new PinLockout(options.dataDir, logger, now);
  /** Until when each connection's console is open; weak, so a connection that is gone is forgotten. */
  const openUntil = new WeakMap<BridgeConnection, number>();
  const isOpen = (connection: BridgeConnection) => (openUntil.get(connection) ?? 0) > now();
  const keepOpen = (connection: BridgeConnection) => void openUntil.set(connection, now() + CONSOLE_TIMEOUT_MS);
  const pinSet = () => config.get().manager.pinHash !== null;
  const setup = () => firstRunSetup(config, secrets);

  const status = async (connection: BridgeConnection): Promise<ManagerStatus> => {
    const allowed = await setup();
    return {
      pinSet: pinSet(),
      setupBlocked: allowed === 'none' ? 'pin_required' : null,
      setupDemoOnly: allowed === 'demo',
      unlocked: isOpen(connection),
      lockedUntil: lockout.lockedUntil(),
      attemptsLeft: lockout.attemptsLeft(),
    };
  };

  const checkPin = async (pin: string, connection: BridgeConnection): Promise<ManagerStatus> => {
    // Whoever asks to unlock is starting a new console session: the old one ends here.
    openUntil.delete(connection);
    if (lockout.lockedUntil() !== null) throw new BridgeFailure('forbidden', 'too many wrong PINs; the pad is locked for a while');
    const stored = config.get().manager.pinHash;
    if (stored === null) throw new BridgeFailure('forbidden', 'no PIN has been set yet');
    if (!(await verifyPin(pin, stored))) {
      await lockout.recordFailure();
      logger.warn('wrong manager PIN', { attemptsLeft: lockout.attemptsLeft() });
      return status(connection);
    }
    await lockout.recordSuccess();
    keepOpen(connection);
    logger.info('manager console unlocked', { connection: connection.id });
    return status(connection);
  };

  /** Unlock attempts, chained: each starts when the one before has been counted. */
  let attempts: Promise<unknown> = Promise.resolve();

  return {
    status,
    keepOpen,
    lock: (connection) => void openUntil.delete(connection),
    unlock(pin, connection) {
      // One attempt at a time: otherwise parallel guesses all pass the lockout check during the
      // ~50 ms scrypt, before any failure is counted.
      const attempt = attempts.then(() => checkPin(pin, connection));
      attempts = attempt.catch(() => {});
      return attempt;
    },
    /**
     * The PIN, recently, and each admitted call extends the session. A fresh kiosk's first run
     * (no PIN yet) opens a setup session instead, which lasts like an unlock: the wizard may store
     * credentials before it sets the PIN, but once the session ends (lock, cancel, timeout) a
     * kiosk left with credentials and no PIN stays locked.
     */
    async admit(connection, call) {
      const open = isOpen(connection);
      if (!open && pinSet()) throw new BridgeFailure('forbidden', 'the console is locked');
      if (!pinSet()) {
        const allowed = await setup();
        if (!open && allowed === 'none') {
          throw new BridgeFailure('forbidden', 'no manager PIN is set on a kiosk that has (or may have) credentials: set one with kioskctl pin set');
        }
        if (allowed === 'demo' && !DEMO_SETUP_CALLS.has(call)) {
          throw new BridgeFailure('forbidden', 'the keychain cannot be read: a first run keeps the demo and sets the PIN, nothing more');
        }
      }
      keepOpen(connection);
    },
  };
}

/** What a demo-only first run may call: read its settings (the demo is kept as it is) and set the PIN. */
const DEMO_SETUP_CALLS: ReadonlySet<ManagerCallName> = new Set(['getConsoleSettings', 'setManagerPin']);

/**
 * What a first run (no PIN) may set up. Only a fresh kiosk (demo, nothing in the keychain) gets
 * the whole wizard. One that has a platform address or stored secrets but lost its PIN (a damaged
 * config.json) gets none: else anyone at the screen could point the stored API key at a server of
 * their own. A demo kiosk whose keychain cannot say what it holds keeps the demo and gets its PIN
 * (a demo needs no secrets); what the keychain turns out to hold is dealt with when it can be read
 * (manager.secretsUnchecked).
 */
async function firstRunSetup(config: ConfigStore, secrets: SecretStore): Promise<'all' | 'demo' | 'none' | 'done'> {
  if (config.get().manager.pinHash !== null) return 'done';
  if (!config.isDemo()) return 'none';
  const stored = await secrets.status();
  if (stored.keychain === 'unavailable') return 'demo';
  return Object.values(stored.stored).some(Boolean) ? 'none' : 'all';
}
