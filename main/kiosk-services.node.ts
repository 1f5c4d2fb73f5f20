import { setTimeout as sleep } from 'node:timers/promises';
import { settlesWithin } from '../base/deadline.std.ts';
import { isDemoConfig, type KioskConfig } from '../common/config-schema.std.ts';
import type { DemoSamples } from '../common/shopper-views.std.ts';
import { createDispatcher, type CallHandlers, type Dispatch } from './bridge/dispatcher.std.ts';
import { EventBus } from './bridge/event-bus.std.ts';
import type { ConfigStore } from './config/config-store.node.ts';
import { settingsView } from './config/settings-view.std.ts';
import { openProvisionedConfig } from './config/provisioning.node.ts';
import { claimDataDir, type DataDirLock } from './paths/data-dir-lock.node.ts';
import { createLogger, FileLogSink } from './logging/file-logger.node.ts';
import type { Logger } from './logging/logger.std.ts';
import { VisitLog } from './logging/visit-log.std.ts';
import { LedgerUnavailable, openKioskLedger, type Ledger } from './ledger/ledger.node.ts';
import { closeShiftByHand, ShiftBusy } from './ledger/close-shift.node.ts';
import { ControlRefusal, startControlServer, type ControlServer } from './control/control-server.node.ts';
import { Reconciler } from './ledger/reconciler.node.ts';
import { VisitIdentity } from './shopper/visit-identity.std.ts';
import { KeytarSecretStore, kioskKeychain, type SecretStore } from './secrets/secret-store.node.ts';
import { secretOriginGuardFor, type SecretOriginGuard } from './secrets/secret-origin.node.ts';
import { createDemoSandbox, type DemoSandbox } from './demo/demo-sandbox.node.ts';
import type { EmbeddedSandbox } from './demo/embedded-sandbox.node.ts';
import { createPlatformConnection, type PlatformConnection } from './loyalty/platform-connection.node.ts';
import { SHOPPER_ACTION_BUDGET_MS, withTimeBudget } from './loyalty/time-budget.node.ts';
import { ServiceHealth } from './loyalty/service-health.node.ts';
import { listSerialPorts } from './scanner/serial-ports.node.ts';
import { ScannerService } from './scanner/scanner-service.node.ts';
import { ScannedHere } from './scanner/scanned-here.std.ts';
import { createShopperHandlers } from './handlers/shopper-handlers.node.ts';
import { createConsoleHandlers } from './handlers/console-handlers.node.ts';
import type { KioskHost } from './process/kiosk-host.std.ts';
import { diagnosticsReport, type DiagnosticsReport } from './diagnostics/diagnostics-report.node.ts';
import { runDoctor } from './diagnostics/doctor.node.ts';
import { fleetCommands } from './fleet-commands/fleet-commands.node.ts';
import { createConsoleSession, type ConsoleSession } from './manager/console-session.node.ts';
import { setupCode } from './manager/setup-code.node.ts';
import { openLockJournal, type LockJournal } from './vouchers/lock-journal.node.ts';
import { createRedemptionService, type RedemptionService } from './vouchers/redemption-service.node.ts';
import { createVoucherHandlers } from './handlers/voucher-handlers.node.ts';
import { SlipService } from './printer/slip-service.node.ts';
import { settleVisit } from './vouchers/visit-settlement.node.ts';
import { trackedVoucherClient } from './vouchers/voucher-client.node.ts';
import { kioskIdOf, type FleetService, startFleetService } from './fleet/fleet-service.node.ts';
import type { FleetConnection } from '../common/manager-views.std.ts';
import { KioskActivity } from './activity/kiosk-activity.std.ts';
import { FrameOrigins } from './security/frame-origins.node.ts';
import { startScheduleService, type DisplayHost, type ScheduleParts, type ScheduleService } from './schedule/schedule-service.node.ts';
import { UpdateService, type Updater } from './update/update-service.node.ts';
import { keepHealthCounters, loadHealthCounters } from './loyalty/health-counters.node.ts';
import { LastScan } from './scanner/last-scan.std.ts';
import { startHeartbeatWatchdog, type HeartbeatWatchdog } from './supervision/heartbeat-watchdog.node.ts';
import { VisitInterruptions } from './supervision/visit-interruptions.std.ts';
import { SpeechService } from './speech/speech-service.node.ts';
import { watchHeadset } from './speech/headset-watch.node.ts';
import { createSpeechHandlers } from './handlers/speech-handlers.node.ts';
import { createStaffCallHandlers } from './handlers/staff-call-handlers.node.ts';
import { dataFiles } from './paths/data-files.node.ts';

export interface KioskServicesOptions {
  dataDir: string;
  version: string;
  /** Echo log lines to stderr (development, the browser host's console). */
  echoLogs?: boolean;
  /** Keychain service name; tests use their own so they never touch a real kiosk's secrets. */
  keychainService?: string;
  /** How often an unreachable platform is tried again (default 5 s). */
  serviceRetryMs?: number;
  /** What restart and quit mean for the host carrying these services. */
  host?: KioskHost;
  /** One shopper action's time with the platform, across all its requests and retries (default 12 s). */
  actionBudgetMs?: number;
  /** Whether the display may sleep (quiet hours); absent: the host has no say (the browser host). */
  display?: DisplayHost;
  /**
   * The host's installer (Electron: electron-updater). Absent in the browser host, which runs from
   * a folder and has nothing to install: its update state is `off`, saying so.
   */
  update?: {
    /** Null where the host carries an installer but cannot update now (Electron unpackaged): say why in `offNote`. */
    updater: Updater | null;
    offNote?: string;
    /** Quit through the host's own quit path (these services close first), then run `install`. */
    quitToInstall: (install: () => void) => void;
    /** The AppImage the kiosk runs from, if it does ($APPIMAGE): kept aside for rollback. */
    runningAppImage: string | null;
  };
  /** Told once this process holds the data folder: what belongs to it (a browser on its profile) may start beside the rest. */
  onDataDirClaimed?: () => void;
  /** A main thread stuck this long ends the process, for the supervisor to restart (default 30 s). */
  heartbeatTimeoutMs?: number;
  /** How long close waits for the parts before it stops anyway (default SERVICES_CLOSE_MS). */
  closeMs?: number;
}

/**
 * What closing the services takes at most. Past it (a part waits on something that no longer
 * answers) the kiosk stops anyway, and frees its data folder: a restart, an update or a SIGTERM
 * always ends, well within systemd's 90 s before its SIGKILL.
 */
export const SERVICES_CLOSE_MS = 20_000;

/**
 * Everything the main process does, independent of the host that carries it: Electron's IPC and
 * the browser host's WebSocket both run exactly this.
 */
export interface KioskServices {
  readonly dataDir: string;
  readonly dispatch: Dispatch;
  readonly events: EventBus;
  readonly logger: Logger;
  readonly logSink: FileLogSink;
  readonly config: ConfigStore;
  readonly secrets: SecretStore;
  /** Present once demo mode started it: the loyalty sandbox a demo kiosk runs against. */
  readonly sandbox: EmbeddedSandbox | null;
  /** The loyalty platform's origin: the one origin the kiosk may frame (hosted session pages). */
  platformOrigin(): string | null;
  /** The origins the renderer may frame (the platform's, its hosted pages'): each host's CSP frame-src. */
  readonly frameOrigins: FrameOrigins;
  /** What the screens show and whether a lock is held: whether the kiosk is idle. */
  readonly activity: KioskActivity;
  /** The auto-update (off in a host without an installer). */
  readonly update: UpdateService;
  /** The hosts say here when a screen went away (crashed, reloaded, closed): a visit on it ends. */
  readonly interruptions: VisitInterruptions;
  /** Closes every part, within `closeMs`, and frees the data folder: it always resolves. */
  close(): Promise<void>;
}

/**
 * Starts the services on a data folder no other kiosk uses. A folder that cannot be written, a
 * damaged demo state or a kiosk already running there is a StartupError (one line for the host).
 */
export async function startKioskServices(options: KioskServicesOptions): Promise<KioskServices> {
  const dataDirLock = claimDataDir(options.dataDir);
  options.onDataDirClaimed?.();
  // From the first moment: a start stuck in a native call is a stuck kiosk too.
  const watchdog = startHeartbeatWatchdog({ timeoutMs: options.heartbeatTimeoutMs });
  try {
    return await startServices(options, { dataDirLock, watchdog });
  } catch (error) {
    // A start that failed leaves nothing running: not even the watcher (an in-process host lives on).
    await watchdog.stop();
    dataDirLock.release();
    throw error;
  }
}

/** What the services are built on: the log, the config, the keychain and the event bus. */
function openFoundation(options: KioskServicesOptions) {
  const logSink = new FileLogSink({ dir: dataFiles(options.dataDir).logs, echo: options.echoLogs });
  const logger = createLogger(logSink);
  const config = openProvisionedConfig(options.dataDir, logger);
  sayWhenSetupNeeded(config.provisioningProblems());
  const secrets = new KeytarSecretStore({
    logger,
    ...kioskKeychain(options.dataDir, options.keychainService),
    onSecretSeen: (value) => logSink.redactor.addSecret(value),
  });
  return { logSink, logger, config, secrets, events: new EventBus() };
}

type Foundation = ReturnType<typeof openFoundation>;

/** An invalid provisioning file is said on stdout too (the journal, a terminal), not only in the log: the kiosk serves no shopper until it is fixed. */
function sayWhenSetupNeeded(problems: readonly string[]) {
  if (problems.length === 0) return;
  process.stdout.write(`loyalty-kiosk: SETUP NEEDED: the provisioning file is invalid (${problems.join('; ')}); the kiosk serves no shopper until it is fixed (kioskctl provision check FILE), then restarted\n`);
}

/** Wiring only: each part is built elsewhere; the kiosk-wide config reactions are declared in configReactions (a service that follows its own settings, like the scanner, subscribes itself). */
async function startServices(options: KioskServicesOptions, { dataDirLock, watchdog }: { dataDirLock: DataDirLock; watchdog: HeartbeatWatchdog }): Promise<KioskServices> {
  const foundation = openFoundation(options);
  const { logSink, logger, config, secrets, events } = foundation;
  const demo = createDemoSandbox({ dataDir: options.dataDir, logger, onSecret: (value) => logSink.redactor.addSecret(value) });
  if (config.isDemo()) await demo.start();
  logger.info('kiosk services started', { event: 'services.started', version: options.version, demo: config.isDemo() });

  // Not awaited: a slow keychain must not hold the start up; every platform call waits for the
  // check instead (secretsSettled).
  const secretOrigin = secretOriginGuardFor(secrets, config, logger);
  void secretOrigin.reconcile();
  const connection = createPlatformConnection({ config, secrets, sandbox: demo.current, logger, secretsSettled: () => secretOrigin.settled() });
  const { health, counters } = startServiceHealth(options, foundation, connection);
  for (const react of Object.values(configReactions({ events, secretOrigin, demo, health, logger, provisioningProblems: config.provisioningProblems() }))) config.onChange(react);
  const stopWatchingConfig = config.watchExternalChanges();

  // One shopper's visit: its portal session tags the lines its calls and redemptions log.
  const visit = new VisitLog(logger);
  const identity = new VisitIdentity();
  const { redemptions, recovered, journal, ledger, close: closeRedemptions } = await startRedemptions(options.dataDir, { foundation, visit, connection, health });
  const activity = new KioskActivity({ locksHeld: () => journal.entries().length });
  const reconciler = startReconciler({ ledger, journal, activity, connection, recovered, logger });
  const { speech, headsetWatch } = startSpeech(foundation);
  const slips = new SlipService({ config: () => config.get(), ledger, previewDir: dataFiles(options.dataDir).slips, kioskId: () => kioskIdOf(config.get()) ?? 'kiosk', logger });
  const stopWatchingPrinter = slips.watch();
  const interruptions = new VisitInterruptions({ activity, endVisit: () => endInterruptedVisit(speech, redemptions, visit, identity), logger });
  const scannedHere = new ScannedHere();
  const scanner = startScanner(foundation, scannedHere);
  const lastScan = new LastScan(() => scanner.status().lastScanAt);
  const { platformOrigin, frameOrigins } = kioskOrigins(options.dataDir, foundation, demo);
  const consoleSession = createConsoleSession({ dataDir: options.dataDir, config, secrets, logger });
  const schedule = startSchedule(options, foundation, { activity, scanner, ledger });
  const update = startUpdates(options, foundation, activity);
  // The console shows the fleet link, and the diagnostics report it: the link is read when asked.
  let fleet: FleetService | null = null;
  const fleetStatus = (): FleetConnection => fleet?.status() ?? { state: 'off', lastError: null, broker: null, kioskId: null, lastHealthAt: null, recentCommands: [] };
  // One report for the console and the fleet, with the last scan the screen reported.
  const diagnostics = diagnosticsReport({ ...foundation, version: options.version, connection, scanner, lastScan, platformOrigin, updateState: () => update.state(), fleet: fleetStatus, printer: async () => (await slips.check(), slips.health()) });
  const demoSamples = () => demo.current()?.samples ?? null;
  const parts = { secretOrigin, connection, health, visit, identity, redemptions, slips, ledger, reconciler, speech, scanner, lastScan, scannedHere, consoleSession, activity, schedule, diagnostics, interruptions, demoSamples, frameOrigins };
  const handlers = callHandlers(options, foundation, parts);
  const commands = commandsForFleet(options, foundation, { diagnostics, activity, update, fleetStatus, ledger, slips });
  const secretsSettled = () => secretOrigin.settled();
  fleet = startFleetService({ ...foundation, ...options, commands, health, scanner, lastScan, activity, schedule, update, ledger, slips, secretsSettled });
  const control = await startControl(options.dataDir, { ledger, activity, logger });

  return {
    ...foundation,
    dataDir: options.dataDir,
    dispatch: createDispatcher(handlers, logger, consoleSession),
    get sandbox() {
      return demo.current();
    },
    platformOrigin,
    frameOrigins,
    activity,
    update,
    interruptions,
    async close() {
      const closeParts = async () => {
        stopWatchingConfig();
        stopWatchingPrinter();
        await control?.close();
        interruptions.close();
        schedule.close();
        await update.close();
        await fleet?.close();
        await secretOrigin.settled();
        await recovered;
        await redemptions.releaseAll('quit').catch(() => undefined);
        speech.stop();
        headsetWatch.stop();
        reconciler.close();
        closeRedemptions();
        health.close();
        await counters.stop();
        await scanner.close();
        await demo.close();
      };
      const closeMs = options.closeMs ?? SERVICES_CLOSE_MS;
      const closing = closeParts().catch((error: unknown) => logger.error('closing the services failed', { error: String(error) }));
      if (!(await settlesWithin(closing, closeMs))) logger.error('the services did not all close in time: the kiosk stops anyway', { event: 'services.close_timeout', afterMs: closeMs });
      await watchdog.stop();
      logger.info('kiosk services stopped', { event: 'services.stopped' });
      dataDirLock.release();
    },
  };
}

/** The kiosk's voice, and the watch that starts speech mode when a headset is plugged in. */
function startSpeech({ config, events, logger }: Foundation) {
  const speech = new SpeechService({ audio: () => config.get().accessibility.audio, logger });
  const headsetWatch = watchHeadset({ onPlugged: () => events.emit('headsetPlugged', {}), logger });
  return { speech, headsetWatch };
}

/** Whether the platform serves: probed now and while idle, its counters carried across restarts. */
function startServiceHealth(options: KioskServicesOptions, { events, logger }: Foundation, connection: PlatformConnection) {
  const countersFile = dataFiles(options.dataDir).healthCounters;
  const health = new ServiceHealth({
    probe: () => connection.client().listVouchers({ limit: 0 }),
    onChange: (status) => events.emit('serviceStatus', status),
    logger,
    retryMs: options.serviceRetryMs,
    counters: loadHealthCounters(countersFile, logger),
  });
  void health.check();
  return { health, counters: keepHealthCounters(countersFile, health, logger) };
}

/**
 * What the kiosk does when its config changes (console, kioskctl, provisioning, an edit of
 * config.json): one declared reaction each, run in this order.
 */
function configReactions(parts: { events: EventBus; secretOrigin: SecretOriginGuard; demo: DemoSandbox; health: ServiceHealth; logger: Logger; provisioningProblems: readonly string[] }) {
  const { events, secretOrigin, demo, health, logger } = parts;
  return {
    /** The renderer follows the settings it shows. */
    settingsChanged: (current: KioskConfig) => events.emit('settingsChanged', settingsView(current, parts.provisioningProblems)),
    /** Secrets follow the configured origin: those stored for another one are dropped. */
    secretsFollowOrigin: () => void secretOrigin.reconcile(),
    /** Demo mode is whatever the config says now: a kiosk sent back to demo gets its sandbox then. */
    demoSandboxStart: (current: KioskConfig) => {
      if (!isDemoConfig(current) || demo.current()) return;
      demo.start().then(
        () => void health.check(),
        (error: unknown) => logger.error('the demo sandbox did not start', { error: String(error) }),
      );
    },
  };
}

/** The serial scanner (it follows its own settings); its scans and status go out as events, each scan's value noted as read here. */
function startScanner({ config, logger, events }: Foundation, scannedHere: ScannedHere): ScannerService {
  const scanner = new ScannerService({
    config,
    logger,
    onScan: (scan) => {
      scannedHere.add(scan.value);
      events.emit('scan', scan);
    },
    onStatus: (status) => events.emit('scannerStatus', status),
  });
  scanner.start();
  return scanner;
}

/** The platform's origin, and the origins the kiosk may frame (the platform's and its portal pages'). */
function kioskOrigins(dataDir: string, { config, logger }: Foundation, demo: DemoSandbox) {
  const platformOrigin = () => {
    const baseUrl = config.get().api.baseUrl ?? demo.current()?.baseUrl;
    return baseUrl ? new URL(baseUrl).origin : null;
  };
  const knownPortalOrigins = () => {
    const sandbox = config.isDemo() ? demo.current() : null;
    return sandbox ? [sandbox.portalOrigin] : [];
  };
  const frameOrigins = new FrameOrigins({ dataDir, config, apiOrigin: platformOrigin, knownPortalOrigins, logger });
  return { platformOrigin, frameOrigins };
}

/** The redemption service, with the locks a crash or power cut left behind settled before anyone can scan. */
async function startRedemptions(
  dataDir: string,
  { foundation, visit, connection, health }: { foundation: Foundation; visit: VisitLog; connection: PlatformConnection; health: ServiceHealth },
) {
  const { logger } = foundation;
  const ledger = openKioskLedger(dataDir, { config: () => foundation.config.get(), logger, shopUuid: () => connection.shopUuid(), outOfServiceMs: () => health.counters().outOfServiceMs });
  const journal = await openLockJournal({ dir: dataDir, logger });
  const redemptions = createRedemptionService({
    client: trackedVoucherClient(connection, health),
    journal,
    ledger,
    shopUuid: () => connection.shopUuid(),
    logger: visit.logger,
  });
  const recovered = redemptions.recover().then(
    (settled) => settled.length > 0 && logger.info('voucher locks from the last run settled', { event: 'voucher.locks_settled', settled }),
    (error: unknown) => logger.error('settling last run\'s voucher locks failed', { error: String(error) }),
  );
  const close = () => {
    redemptions.close();
    ledger.close();
  };
  return { redemptions, recovered, journal, ledger, close };
}

/**
 * Each closed shift checked against the platform: from this start on (once last run's locks are
 * settled), after every Z, and only while the kiosk is idle.
 */
function startReconciler({
  ledger,
  journal,
  activity,
  connection,
  recovered,
  logger,
}: { ledger: Ledger; journal: LockJournal; activity: KioskActivity; connection: PlatformConnection; recovered: Promise<unknown>; logger: Logger }) {
  const reconciler = new Reconciler({
    ledger,
    findVoucher: async (code) => (await connection.client().findVoucher({ code })).data,
    heldVouchers: () => new Set([...journal.entries().map((entry) => entry.voucherUuid), ...journal.unresolved()]),
    // Short waits, asked again: a kiosk closing mid-wait is not held up for long.
    whenIdle: () => activity.whenIdle({ timeoutMs: 5_000 }),
    // Not holding the process up: a kiosk that quits mid-wait picks the shift up at its next start.
    wait: (ms) => sleep(ms, undefined, { ref: false }),
    logger,
  });
  void recovered.then(() => reconciler.run());
  return reconciler;
}

/**
 * kioskctl's socket in the data folder: `kioskctl report z` closes the shift through this kiosk,
 * the ledger's one writer. A socket that cannot be opened is said in the log; the console still can.
 */
async function startControl(dataDir: string, { ledger, activity, logger }: { ledger: Ledger; activity: KioskActivity; logger: Logger }): Promise<ControlServer | null> {
  const closeShift = async () => {
    try {
      return closeShiftByHand({ ledger, locksHeld: () => activity.locksHeld(), logger }, 'kioskctl');
    } catch (error) {
      if (error instanceof ShiftBusy) throw new ControlRefusal('busy', error.message);
      if (error instanceof LedgerUnavailable) throw new ControlRefusal('unavailable', error.message);
      throw error;
    }
  };
  try {
    return await startControlServer({ socketPath: dataFiles(dataDir).controlSocket, handlers: { closeShift }, logger });
  } catch (error) {
    logger.error('kioskctl cannot reach this kiosk: its socket could not be opened', { event: 'control.failed', error: String(error) });
    return null;
  }
}

/**
 * A screen that went away mid-visit (crashed, reloaded, closed): its locks are settled and its voice
 * stops. A screen that ends its own visit says so itself (endVisit, endSpeech).
 */
function endInterruptedVisit(speech: SpeechService, redemptions: RedemptionService, visit: VisitLog, identity: VisitIdentity): Promise<void> {
  speech.endVisit();
  return settleVisit(redemptions, visit, identity);
}


/** Quiet hours, the nightly restart through the host, and the daily Z on the ledger. */
function startSchedule(options: KioskServicesOptions, { config, events, logger }: Foundation, parts: Pick<ScheduleParts, 'activity' | 'scanner' | 'ledger'>) {
  const restart = () => hostOf(options, logger).restart();
  return startScheduleService({ ...parts, config, events, logger, display: options.display ?? NO_DISPLAY_CONTROL, restart });
}

/** A host without a power-save blocker (the browser host: Chromium and the OS decide). */
const NO_DISPLAY_CONTROL: DisplayHost = { allowDisplaySleep: () => {} };
/** The auto-update, with the host's installer or, where there is none, off. */
function startUpdates(options: KioskServicesOptions, { config, logger }: Foundation, activity: KioskActivity): UpdateService {
  return new UpdateService({
    updater: options.update?.updater ?? null,
    offNote: options.update?.offNote ?? 'this host has no installer (the browser host runs from its folder: update it there)',
    quitToInstall: options.update?.quitToInstall ?? (() => {}),
    runningAppImage: options.update?.runningAppImage ?? null,
    config,
    activity,
    logger: logger.child({ part: 'update' }),
    dataDir: options.dataDir,
    version: options.version,
  });
}

/** What restart and quit mean here: the host's, or a logged refusal where it has none. */
function hostOf(options: KioskServicesOptions, logger: Logger): KioskHost {
  return options.host ?? { restart: () => logger.warn('restart is not available in this host'), quit: () => logger.warn('quit is not available in this host') };
}

/** The commands a fleet broker may send, wired to the features: the doctor's broker check is the fleet's own link. */
function commandsForFleet(
  options: KioskServicesOptions,
  { config, secrets, logger }: Foundation,
  parts: { diagnostics: DiagnosticsReport; activity: KioskActivity; update: UpdateService; fleetStatus: () => FleetConnection; ledger: Ledger; slips: SlipService },
) {
  const host = hostOf(options, logger);
  return fleetCommands({
    config,
    logger,
    // A second login as the kiosk would push its link off: the doctor reports the link instead.
    doctor: () => runDoctor({ dataDir: options.dataDir, logger, secrets, fleetLink: parts.fleetStatus, ledger: () => parts.ledger.status(), printer: () => parts.slips.check() }),
    diagnostics: parts.diagnostics,
    activity: parts.activity,
    restart: () => host.restart(),
    update: parts.update,
    ledger: parts.ledger,
    reload: host.reload?.bind(host),
    screenshot: host.screenshot?.bind(host),
  });
}

/** Every bridge call, each answered by the part that owns it. */
function callHandlers(
  options: KioskServicesOptions,
  { config, secrets, logSink, logger }: Foundation,
  parts: {
    secretOrigin: SecretOriginGuard;
    connection: PlatformConnection;
    health: ServiceHealth;
    visit: VisitLog;
    identity: VisitIdentity;
    redemptions: RedemptionService;
    slips: SlipService;
    ledger: Ledger;
    reconciler: Reconciler;
    speech: SpeechService;
    scanner: ScannerService;
    lastScan: LastScan;
    scannedHere: ScannedHere;
    consoleSession: ConsoleSession;
    activity: KioskActivity;
    schedule: ScheduleService;
    diagnostics: DiagnosticsReport;
    interruptions: VisitInterruptions;
    demoSamples: () => DemoSamples | null;
    frameOrigins: FrameOrigins;
  },
): CallHandlers {
  const { secretOrigin, connection, health, visit, identity, redemptions, slips, ledger, reconciler, speech, scanner, lastScan, scannedHere, consoleSession, activity, schedule, diagnostics, interruptions, frameOrigins } = parts;
  const { actionBudgetMs = SHOPPER_ACTION_BUDGET_MS } = options;
  return {
    getAppInfo: async () => ({ name: 'Loyalty Kiosk', version: options.version, demo: config.isDemo() }),
    getSettings: async () => settingsView(config.get(), config.provisioningProblems()),
    reportRendererError: async ({ message, where }) => {
      logger.error('renderer error', { event: 'renderer.error', message, where });
      return null;
    },
    getServiceStatus: async () => health.check(),
    getScannerStatus: async () => scanner.status(),
    getDemoSamples: async () => (config.isDemo() && parts.demoSamples()) || { cards: [], vouchers: [] },
    reportScreen: async ({ screen }, from) => {
      activity.report(from, screen);
      return null;
    },
    getSleepState: async () => ({ asleep: schedule.asleep() }),
    wake: async () => {
      schedule.wake();
      return null;
    },
    screenStarted: async () => ({ visitInterrupted: await interruptions.takeInterrupted() }),
    listSerialPorts: () => listSerialPorts(),
    ...createShopperHandlers({ connection, health, config, visit, identity, actionBudgetMs, frameOrigins, scannedHere }),
    ...createConsoleHandlers({
      session: consoleSession,
      diagnostics,
      config,
      secrets,
      secretOrigin,
      connection,
      lastScan,
      logSink,
      logger,
      host: hostOf(options, logger),
      setupCode: () => (config.get().manager.pinHash === null ? setupCode(options.dataDir, config) : null),
      reports: { ledger, reconciler, locksHeld: () => activity.locksHeld() },
      slips,
    }),
    ...createVoucherHandlers({ redemptions, slips, visit, identity, logger, shopperAction: (action) => withTimeBudget(actionBudgetMs, action) }),
    ...createSpeechHandlers(speech),
    ...createStaffCallHandlers({ activity, speech, logger }),
  };
}
