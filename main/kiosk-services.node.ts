import fs from 'node:fs';
import path from 'node:path';
import type { KioskSettingsView } from '../preload/contract.std.ts';
import type { KioskConfig } from '../preload/config-schema.std.ts';
import { createDispatcher, type CallHandlers, type Dispatch } from './bridge/dispatcher.std.ts';
import { EventBus } from './bridge/event-bus.std.ts';
import { ConfigStore } from './config/config-store.node.ts';
import { createLogger, FileLogSink } from './logging/file-logger.node.ts';
import type { Logger } from './logging/logger.std.ts';
import { KeytarSecretStore, type SecretStore } from './secrets/secret-store.node.ts';
import { startEmbeddedSandbox, type EmbeddedSandbox } from './demo/embedded-sandbox.node.ts';

export interface KioskServicesOptions {
  dataDir: string;
  version: string;
  /** Echo log lines to stderr (development, the browser host's console). */
  echoLogs?: boolean;
  /** Keychain service name; tests use their own so they never touch a real kiosk's secrets. */
  keychainService?: string;
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
  /** Present in demo mode: the loyalty sandbox this kiosk runs against. */
  readonly sandbox: EmbeddedSandbox | null;
  close(): Promise<void>;
}

export async function startKioskServices(options: KioskServicesOptions): Promise<KioskServices> {
  fs.mkdirSync(options.dataDir, { recursive: true });
  const logSink = new FileLogSink({ dir: path.join(options.dataDir, 'logs'), echo: options.echoLogs });
  const logger = createLogger(logSink);
  const config = new ConfigStore({ dataDir: options.dataDir, logger });
  const secrets = new KeytarSecretStore({
    logger,
    service: options.keychainService,
    onSecretSeen: (value) => logSink.redactor.addSecret(value),
  });
  const events = new EventBus();

  const demo = config.get().api.baseUrl === null;
  const sandbox = demo ? await startEmbeddedSandbox({ dataDir: options.dataDir, logger }) : null;
  if (sandbox) {
    for (const secret of Object.values(sandbox.credentials)) logSink.redactor.addSecret(secret);
  }
  logger.info('kiosk services started', { version: options.version, demo });

  const settingsView = (current: KioskConfig): KioskSettingsView => ({
    demo,
    mode: current.kiosk.mode,
    session: current.session,
    scannerConnection: current.scanner.connection,
    idleTimeoutSeconds: current.idle.timeoutSeconds,
    locale: current.locale,
    brand: current.brand,
  });
  config.onChange((current) => events.emit('settingsChanged', settingsView(current)));
  const stopWatchingConfig = config.watchExternalChanges();

  const handlers: CallHandlers = {
    getAppInfo: async () => ({ name: 'Loyalty Kiosk', version: options.version, demo }),
    getSettings: async () => settingsView(config.get()),
    reportRendererError: async ({ message, where }) => {
      logger.error('renderer error', { message, where });
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
    sandbox,
    async close() {
      stopWatchingConfig();
      await sandbox?.close();
      logger.info('kiosk services stopped');
    },
  };
}
