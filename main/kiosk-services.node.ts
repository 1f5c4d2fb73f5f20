import path from 'node:path';
import type { KioskSettingsView } from '../common/contract.std.ts';
import { isDemoConfig, type KioskConfig } from '../common/config-schema.std.ts';
import { BridgeFailure, createDispatcher, type CallHandlers, type Dispatch } from './bridge/dispatcher.std.ts';
import { EventBus } from './bridge/event-bus.std.ts';
import type { ConfigStore } from './config/config-store.node.ts';
import { openProvisionedConfig } from './config/provisioning.node.ts';
import { claimDataDir, type DataDirLock } from './paths/data-dir-lock.node.ts';
import { createLogger, FileLogSink } from './logging/file-logger.node.ts';
import type { Logger } from './logging/logger.std.ts';
import { VisitLog } from './logging/visit-log.std.ts';
import { KeytarSecretStore, type SecretStore } from './secrets/secret-store.node.ts';
import { originOf, SecretOriginGuard } from './secrets/secret-origin.node.ts';
import { startEmbeddedSandbox, type EmbeddedSandbox } from './demo/embedded-sandbox.node.ts';
import { createPlatformConnection } from './loyalty/platform-connection.node.ts';
import { SHOPPER_ACTION_BUDGET_MS, withTimeBudget } from './loyalty/time-budget.node.ts';
import { ServiceHealth } from './loyalty/service-health.node.ts';
import { listSerialPorts } from './scanner/serial-ports.node.ts';
import { ScannerService } from './scanner/scanner-service.node.ts';
import { createShopperHandlers } from './shopper/shopper-service.node.ts';
import { createManagerHandlers, type ManagerHost } from './manager/manager-service.node.ts';
import { toVoucherView } from './shopper/views.std.ts';
import { openLockJournal } from './vouchers/lock-journal.node.ts';
import { createRedemptionService, type Redeemed, type VoucherClient } from './vouchers/redemption-service.node.ts';

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
  host?: ManagerHost;
  /** One shopper action's time with the platform, across all its requests and retries (default 12 s). */
  actionBudgetMs?: number;
}

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
  close(): Promise<void>;
}

/**
 * Starts the services on a data folder no other kiosk uses. A folder that cannot be written, a
 * damaged demo state or a kiosk already running there is a StartupError (one line for the host).
 */
export async function startKioskServices(options: KioskServicesOptions): Promise<KioskServices> {
  const dataDirLock = claimDataDir(options.dataDir);
  try {
    return await startServices(options, dataDirLock);
  } catch (error) {
    dataDirLock.release();
    throw error;
  }
}

async function startServices(options: KioskServicesOptions, dataDirLock: DataDirLock): Promise<KioskServices> {
  const logSink = new FileLogSink({ dir: path.join(options.dataDir, 'logs'), echo: options.echoLogs });
  const logger = createLogger(logSink);
  const config = openProvisionedConfig(options.dataDir, logger);
  const secrets = new KeytarSecretStore({
    logger,
    service: options.keychainService,
    onSecretSeen: (value) => logSink.redactor.addSecret(value),
  });
  const events = new EventBus();

  // Demo mode is whatever the config says now: connecting leaves it at once, and a kiosk sent
  // back to demo (kioskctl) gets its sandbox started then.
  const isDemo = (current = config.get()) => isDemoConfig(current);
  let sandbox: EmbeddedSandbox | null = null;
  let sandboxStarting: Promise<EmbeddedSandbox> | undefined;
  const startSandbox = () =>
    (sandboxStarting ??= startEmbeddedSandbox({ dataDir: options.dataDir, logger }).then(
      (started) => {
        for (const secret of Object.values(started.credentials)) logSink.redactor.addSecret(secret);
        return (sandbox = started);
      },
      (error: unknown) => {
        sandboxStarting = undefined;
        throw error;
      },
    ));
  if (isDemo()) await startSandbox();
  logger.info('kiosk services started', { version: options.version, demo: isDemo() });

  const settingsView = (current: KioskConfig): KioskSettingsView => ({
    demo: isDemo(current),
    mode: current.kiosk.mode,
    session: current.session,
    scannerConnection: current.scanner.connection,
    wedgeMaxAverageIntervalMs: current.scanner.wedge.maxAverageIntervalMs,
    idleTimeoutSeconds: current.idle.timeoutSeconds,
    locale: current.locale,
    brand: current.brand,
  });
  config.onChange((current) => events.emit('settingsChanged', settingsView(current)));
  const stopWatchingConfig = config.watchExternalChanges();

  // Secrets follow the configured origin: checked at start and at every change (console, kioskctl,
  // provisioning, an edit of config.json). Not awaited: a slow keychain must not hold the start up;
  // every platform call waits for the check instead (secretsSettled).
  const secretOrigin = new SecretOriginGuard(secrets, () => originOf(config.get().api.baseUrl), logger);
  void secretOrigin.reconcile();
  config.onChange(() => void secretOrigin.reconcile());

  const connection = createPlatformConnection({ config, secrets, sandbox: () => sandbox, logger, secretsSettled: () => secretOrigin.settled() });
  const health = new ServiceHealth({
    probe: () => connection.client().listVouchers({ limit: 0 }),
    onChange: (status) => events.emit('serviceStatus', status),
    logger,
    retryMs: options.serviceRetryMs,
  });
  void health.check();
  config.onChange((current) => {
    if (isDemo(current) && !sandbox) {
      startSandbox().then(
        () => void health.check(),
        (error: unknown) => logger.error('the demo sandbox did not start', { error: String(error) }),
      );
    }
  });

  const platformOrigin = () => {
    const baseUrl = config.get().api.baseUrl ?? sandbox?.baseUrl;
    return baseUrl ? new URL(baseUrl).origin : null;
  };

  // Each call goes to the platform configured now, and tells health how it went.
  const voucherClient: VoucherClient = {
    findVoucher: (input) => health.track(connection.client().findVoucher(input)),
    lockVoucher: (input) => health.track(connection.client().lockVoucher(input)),
    redeemVoucher: (input) => health.track(connection.client().redeemVoucher(input)),
    releaseVoucher: (input) => health.track(connection.client().releaseVoucher(input)),
  };
  // One shopper's visit: its portal session tags the lines its calls and redemptions log.
  const visit = new VisitLog(logger);
  const redemptions = createRedemptionService({
    client: voucherClient,
    journal: await openLockJournal({ dir: options.dataDir, logger }),
    shopUuid: () => connection.shopUuid(),
    logger: visit.logger,
  });
  // Locks a crash or power cut left behind are settled before anyone can scan.
  const recovered = redemptions.recover().then(
    (settled) => settled.length > 0 && logger.info('voucher locks from the last run settled', { settled }),
    (error: unknown) => logger.error('settling last run\'s voucher locks failed', { error: String(error) }),
  );

  const { actionBudgetMs = SHOPPER_ACTION_BUDGET_MS } = options;
  const shopperAction = <T>(action: () => Promise<T>) => withTimeBudget(actionBudgetMs, action);

  const scanner = new ScannerService({
    config,
    logger,
    onScan: (scan) => events.emit('scan', scan),
    onStatus: (status) => events.emit('scannerStatus', status),
  });
  scanner.start();

  const handlers: CallHandlers = {
    getAppInfo: async () => ({ name: 'Loyalty Kiosk', version: options.version, demo: isDemo() }),
    getSettings: async () => settingsView(config.get()),
    reportRendererError: async ({ message, where }) => {
      logger.error('renderer error', { message, where });
      return null;
    },
    getServiceStatus: async () => health.check(),
    getScannerStatus: async () => scanner.status(),
    listSerialPorts: () => listSerialPorts(),
    ...createShopperHandlers({ connection, health, config, visit, actionBudgetMs }),
    ...createManagerHandlers({
      dataDir: options.dataDir,
      version: options.version,
      config,
      secrets,
      secretOrigin,
      connection,
      scanner,
      logSink,
      logger,
      host: options.host ?? { restart: () => logger.warn('restart is not available in this host'), quit: () => logger.warn('quit is not available in this host') },
      platformOrigin: () => platformOrigin(),
    }),
    lockVoucher: ({ voucherUuid, code }) =>
      shopperAction(async () => {
        const lock = await redemptions.lock(code);
        if (lock.voucherUuid !== voucherUuid) {
          await redemptions.release(lock.voucherUuid, 'cancel');
          throw new BridgeFailure('conflict', 'the code names another voucher');
        }
        return lock;
      }),
    redeemVoucher: ({ voucherUuid, contactUuid }) =>
      shopperAction(async () => {
        const result = await redemptions.redeem(voucherUuid, { contactUuid });
        return result.outcome === 'redeemed' ? redeemedView(result) : result;
      }),
    releaseVoucher: ({ voucherUuid, reason }) =>
      shopperAction(async () => {
        const result = await redemptions.release(voucherUuid, reason);
        return result.outcome === 'redeemed' ? redeemedView(result) : { outcome: result.outcome };
      }),
    endVisit: async () => {
      await redemptions.releaseAll('idle');
      visit.end();
      return null;
    },
  };

  return {
    dataDir: options.dataDir,
    dispatch: createDispatcher(handlers, logger),
    events,
    logger,
    logSink,
    config,
    secrets,
    get sandbox() {
      return sandbox;
    },
    platformOrigin,
    async close() {
      stopWatchingConfig();
      await secretOrigin.settled();
      await recovered;
      await redemptions.releaseAll('quit').catch(() => undefined);
      redemptions.close();
      health.close();
      await scanner.close();
      await sandboxStarting?.then((started) => started.close(), () => undefined);
      logger.info('kiosk services stopped');
      dataDirLock.release();
    },
  };
}

/** A redemption as the shopper screens show it: cut down to the voucher view. */
function redeemedView({ redeemedAt, voucher }: Redeemed) {
  return { outcome: 'redeemed' as const, redeemedAt, voucher: toVoucherView(voucher) };
}
