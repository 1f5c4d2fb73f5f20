import { serialQueue } from '../../base/queue.std.ts';
import type { BridgeConnection, ConsoleGate } from '../bridge/dispatcher.std.ts';
import { BridgeFailure } from '../bridge/dispatcher.std.ts';
import type { ConfigStore } from '../config/config-store.node.ts';
import type { Logger } from '../logging/logger.std.ts';
import type { SecretStore } from '../secrets/secret-store.node.ts';
import { CONSOLE_TIMEOUT_MS, type ManagerStatus } from '../../common/manager-views.std.ts';
import type { ManagerCallName } from '../../common/contract.std.ts';
import { hashPin, verifyPin } from './pin-hash.node.ts';
import { PinLockout } from './pin-lockout.node.ts';
import { isSetupCode } from './setup-code.node.ts';
import { SECRET_NAMES } from '../secrets/secret-store.node.ts';

/** Each bridge connection's console session: the PIN pad's state, and the gate every manager call passes. */
export interface ConsoleSession extends ConsoleGate {
  status(connection: BridgeConnection): Promise<ManagerStatus>;
  /** Checks the PIN; a wrong one is counted and answered with the status, not refused. */
  unlock(pin: string, connection: BridgeConnection): Promise<ManagerStatus>;
  /** A fresh kiosk's wizard: opens a setup session with the setup code; a wrong one counts as a wrong PIN. */
  startSetup(code: string, connection: BridgeConnection): Promise<ManagerStatus>;
  lock(connection: BridgeConnection): void;
  /** Sets the PIN from this connection's open session, which it then keeps open under the new PIN. */
  setPin(pin: string, connection: BridgeConnection): Promise<ManagerStatus>;
}

/** An open session: until when, and the PIN it was opened under (null: a first run's setup session). */
interface OpenSession {
  until: number;
  pinHash: string | null;
}

/**
 * The PIN is checked here, in main, not in the renderer, and a session belongs to the bridge
 * connection that unlocked it: another window or WebSocket stays locked. A session lasts only
 * while the PIN it was opened under is the PIN: a new one (set by any route: another connection,
 * kioskctl writing config.json) ends every other session at once, a first run's setup session too.
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
  const sessions = openSessions(config, now);
  const { currentPin } = sessions;
  /** A PIN set while the keychain could not be read opens the demo's console only, until kioskctl pin set. */
  const pinDemoOnly = () => config.get().manager.secretsUnchecked;
  const unfinished = unfinishedSetup({ config, secrets, logger, now });
  // Any wizard left unfinished is undone before a first run is judged.
  const setup = () => unfinished.undoIfAbandoned().then(() => firstRunSetup(config, secrets));

  const status = async (connection: BridgeConnection): Promise<ManagerStatus> => {
    const allowed = await setup();
    const pinSet = currentPin() !== null;
    return {
      pinSet,
      setupBlocked: !pinSet && allowed === 'none' ? 'pin_required' : null,
      setupDemoOnly: pinSet ? pinDemoOnly() : allowed === 'demo',
      platformAdmin: config.get().console.platformAdmin,
      unlocked: sessions.of(connection) !== null,
      lockedUntil: lockout.lockedUntil(),
      attemptsLeft: lockout.attemptsLeft(),
    };
  };

  const checkPin = async (pin: string, connection: BridgeConnection): Promise<ManagerStatus> => {
    // Whoever asks to unlock is starting a new console session: the old one ends here.
    sessions.close(connection);
    if (lockout.lockedUntil() !== null) throw new BridgeFailure('forbidden', 'too many wrong PINs; the pad is locked for a while');
    const stored = currentPin();
    if (stored === null) throw new BridgeFailure('forbidden', 'no PIN has been set yet');
    if (!(await verifyPin(pin, stored))) {
      await lockout.recordFailure();
      logger.warn('wrong manager PIN', { attemptsLeft: lockout.attemptsLeft() });
      return status(connection);
    }
    await lockout.recordSuccess();
    sessions.open(connection, stored);
    logger.info('manager console unlocked', { connection: connection.id });
    return status(connection);
  };

  const setPin = async (pin: string, connection: BridgeConnection): Promise<ManagerStatus> => {
    const [pinHash, allowed] = await Promise.all([hashPin(pin), setup()]);
    // Decided after the hashing, with nothing awaited in between: a PIN another connection or
    // process set meanwhile has ended this session (two wizards at once set one PIN, not two).
    const session = sessions.of(connection);
    if (!session) throw new BridgeFailure('forbidden', 'the console is locked');
    const demoOnly = session.pinHash === null ? allowed === 'demo' : pinDemoOnly();
    config.setMany({ 'manager.pinHash': pinHash, 'manager.secretsUnchecked': demoOnly, 'manager.setupUnfinished': false });
    sessions.open(connection, pinHash);
    logger.info('manager PIN set', { demoOnly });
    return status(connection);
  };

  /** Unlock attempts, one at a time: each starts when the one before has been counted. */
  const attempts = serialQueue();

  return {
    status,
    setPin,
    lock(connection) {
      // Cancel on a first run's wizard: what it changed is undone (the session it closes was the one open).
      if (sessions.of(connection)?.pinHash === null) void unfinished.ended();
      sessions.close(connection);
    },
    unlock(pin, connection) {
      // One attempt at a time: otherwise parallel guesses all pass the lockout check during the
      // ~50 ms scrypt, before any failure is counted.
      return attempts.run(() => checkPin(pin, connection));
    },
    startSetup: (code, connection) => attempts.run(() => openWithSetupCode({ dataDir: options.dataDir, config, lockout, sessions, logger, setup, status, unfinished }, code, connection)),
    /**
     * The PIN, recently, and each admitted call extends the session. A fresh kiosk's first run
     * (no PIN yet) opens a setup session instead, which lasts like an unlock while there is no PIN:
     * the wizard may store credentials before it sets the PIN. Once the session ends without one
     * (lock, cancel, timeout, a restart), what it stored is undone (unfinishedSetup); a PIN set by
     * anyone ends every setup session.
     */
    async admit(connection, call) {
      const session = sessions.of(connection);
      if (session?.pinHash) {
        if (pinDemoOnly()) keepToDemo(call, 'this PIN was set while the keychain could not be read: it opens the demo\'s console only until an admin sets the PIN with kioskctl pin set');
        return sessions.open(connection, session.pinHash);
      }
      const allowed = await setup();
      // After the keychain's answer: a PIN set by now, by anyone, has ended every first run.
      if (currentPin() !== null) throw new BridgeFailure('forbidden', 'the console is locked');
      if (!session) throw new BridgeFailure('forbidden', allowed === 'none' ? NO_PIN_ON_CONFIGURED_KIOSK : 'enter the setup code first: kioskctl setup-code prints it');
      if (allowed === 'demo') keepToDemo(call, 'the keychain cannot be read: a first run keeps the demo and sets the PIN, nothing more');
      sessions.open(connection, null);
      unfinished.keepOpen(call);
    },
  };
}

/** A fresh kiosk's setup session, opened by the setup code; a wrong code counts as a wrong PIN. */
async function openWithSetupCode(
  deps: {
    dataDir: string;
    config: ConfigStore;
    lockout: PinLockout;
    sessions: ReturnType<typeof openSessions>;
    logger: Logger;
    setup: () => Promise<'all' | 'demo' | 'none' | 'done'>;
    status: (connection: BridgeConnection) => Promise<ManagerStatus>;
    unfinished: ReturnType<typeof unfinishedSetup>;
  },
  code: string,
  connection: BridgeConnection,
): Promise<ManagerStatus> {
  const { lockout, sessions, logger } = deps;
  sessions.close(connection);
  if (lockout.lockedUntil() !== null) throw new BridgeFailure('forbidden', 'too many wrong codes; the pad is locked for a while');
  const allowed = await deps.setup();
  if (allowed === 'done') throw new BridgeFailure('forbidden', 'a manager PIN is set: the console opens with it');
  if (allowed === 'none') throw new BridgeFailure('forbidden', NO_PIN_ON_CONFIGURED_KIOSK);
  if (!isSetupCode(deps.dataDir, code, deps.config)) {
    await lockout.recordFailure();
    logger.warn('wrong setup code', { attemptsLeft: lockout.attemptsLeft() });
    return deps.status(connection);
  }
  await lockout.recordSuccess();
  sessions.open(connection, null);
  deps.unfinished.keepOpen();
  logger.info('first-run setup opened', { connection: connection.id });
  return deps.status(connection);
}

const NO_PIN_ON_CONFIGURED_KIOSK = 'no manager PIN is set on a kiosk that has (or may have) credentials: set one with kioskctl pin set';

/** Each connection's open session (weak: a connection that is gone is forgotten), good only under the PIN it was opened under. */
function openSessions(config: ConfigStore, now: () => number) {
  const sessions = new WeakMap<BridgeConnection, OpenSession>();
  /** The PIN as config.json has it now: read again, not when the file watcher gets to it. */
  const currentPin = () => {
    config.refresh();
    return config.get().manager.pinHash;
  };
  return {
    currentPin,
    open: (connection: BridgeConnection, pinHash: string | null) => void sessions.set(connection, { until: now() + CONSOLE_TIMEOUT_MS, pinHash }),
    close: (connection: BridgeConnection) => void sessions.delete(connection),
    /** The connection's session, if it is open and the PIN it was opened under is still the PIN. */
    of(connection: BridgeConnection): OpenSession | null {
      const session = sessions.get(connection);
      if (session && session.until > now() && session.pinHash === currentPin()) return session;
      sessions.delete(connection);
      return null;
    },
  };
}

/**
 * The demo's console: read its settings (the demo is kept as it is) and set the PIN. All that a
 * first run whose keychain cannot be read may call, and all that the PIN it set opens.
 */
const DEMO_CONSOLE_CALLS: ReadonlySet<ManagerCallName> = new Set(['getConsoleSettings', 'setManagerPin']);

/**
 * A first run's wizard that changed the connection (SETUP_CHANGES) and has set no PIN: when it ends
 * without one (Cancel, its session timed out, the kiosk restarted), the kiosk goes back to the demo,
 * as before it: the secrets it stored removed, the platform address and shop cleared. Else a kiosk
 * left with credentials and no PIN would stay locked to everyone but IT with a shell.
 */
function unfinishedSetup({ config, secrets, logger, now }: { config: ConfigStore; secrets: SecretStore; logger: Logger; now: () => number }) {
  /** Until when a setup session (any connection's) stays open: none past this moment. */
  let openUntil = 0;
  const undoing = serialQueue();
  const undoIfAbandoned = () =>
    undoing.run(async () => {
      const { manager } = config.get();
      if (manager.pinHash !== null || !manager.setupUnfinished || openUntil > now()) return;
      try {
        for (const name of SECRET_NAMES) await secrets.remove(name);
        const reset = Object.fromEntries(['api.baseUrl', 'api.shopUuid'].filter((key) => !config.isLocked(key)).map((key) => [key, null]));
        config.setMany({ ...reset, 'manager.setupUnfinished': false });
        logger.warn('first-run setup ended before a PIN was set: the kiosk is back to the demo, its credentials removed', { event: 'setup.undone' });
      } catch (error) {
        // Tried again at the next status or call; meanwhile the kiosk stays locked.
        logger.error('could not undo an unfinished first-run setup', { error: String(error) });
      }
    });
  // A wizard cut short by a crash or a power cut is undone at once: no session of it survives a start.
  void undoIfAbandoned();
  return {
    undoIfAbandoned,
    /** A setup session opened, or admitted `call`: it stays open a while, and a change of the connection is marked. */
    keepOpen(call?: ManagerCallName) {
      openUntil = now() + CONSOLE_TIMEOUT_MS;
      if (call && SETUP_CHANGES.has(call) && !config.get().manager.setupUnfinished) config.set('manager.setupUnfinished', true);
    },
    /** The wizard was left (Cancel, lock): what it changed is undone now. */
    ended() {
      openUntil = 0;
      return undoIfAbandoned();
    },
  };
}

/** The calls by which a first run's wizard changes the connection: undone if it ends without a PIN. */
const SETUP_CHANGES: ReadonlySet<ManagerCallName> = new Set(['updateSettings', 'setSecret', 'removeSecret', 'importSettings', 'connectWithSetupCard']);

/** Refuses, saying `why`, any call beyond the demo's console. */
function keepToDemo(call: ManagerCallName, why: string) {
  if (!DEMO_CONSOLE_CALLS.has(call)) throw new BridgeFailure('forbidden', why);
}

/**
 * What a first run (no PIN) may set up. Only a fresh kiosk (demo, nothing in the keychain) gets
 * the whole wizard. One that has a platform address or stored secrets but lost its PIN (a damaged
 * config.json) gets none: else anyone at the screen could point the stored API key at a server of
 * their own. A demo kiosk whose keychain cannot say what it holds (unknown, not empty: at boot,
 * before the keyring is up) keeps the demo and gets a PIN that opens the demo's console only
 * (manager.secretsUnchecked), whatever the keychain turns out to hold.
 */
async function firstRunSetup(config: ConfigStore, secrets: SecretStore): Promise<'all' | 'demo' | 'none' | 'done'> {
  if (config.get().manager.pinHash !== null) return 'done';
  if (!config.isDemo()) return 'none';
  const stored = await secrets.status();
  if (stored.keychain === 'unavailable') return 'demo';
  return Object.values(stored.stored).some(Boolean) ? 'none' : 'all';
}
