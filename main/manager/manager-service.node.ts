import type { CallHandlers } from '../bridge/dispatcher.std.ts';
import { BridgeFailure } from '../bridge/dispatcher.std.ts';
import type { ConfigStore } from '../config/config-store.node.ts';
import { importSettings } from '../config/settings-import.node.ts';
import type { Logger } from '../logging/logger.std.ts';
import type { FileLogSink } from '../logging/file-logger.node.ts';
import { createLoyaltyClient } from '../loyalty/client.node.ts';
import { LoyaltyError } from '../loyalty/errors.std.ts';
import type { PlatformConnection } from '../loyalty/platform-connection.node.ts';
import type { ScannerService } from '../scanner/scanner-service.node.ts';
import type { SecretStore } from '../secrets/secret-store.node.ts';
import { originOf, storeSecretFor, storedSecretsFor, type SecretOriginGuard } from '../secrets/secret-origin.node.ts';
import type { ConsoleSettings } from '../../common/manager-views.std.ts';
import type { ScanSource } from '../../common/scan.std.ts';
import { isLoopbackUrl } from '../../common/config-schema.std.ts';
import { toAdminRewardAttribute, toAdminVoucher } from './admin-views.std.ts';
import type { ConsoleSession } from './console-session.node.ts';
import { withConsoleErrors } from './console-errors.node.ts';
import { hashPin } from './pin-hash.node.ts';
import { checkShop } from './shop-check.node.ts';

export interface ManagerHost {
  restart(): void;
  quit(): void;
  /** Saves an export where the manager chooses; the path, or null when they cancelled. Absent: the renderer downloads it. */
  saveFile?(fileName: string, content: string): Promise<string | null>;
}

export interface ManagerServiceOptions {
  /** The same session the dispatcher's console gate checks. */
  session: ConsoleSession;
  version: string;
  config: ConfigStore;
  secrets: SecretStore;
  /** Removes the stored secrets when the configured platform moves to another origin. */
  secretOrigin: SecretOriginGuard;
  connection: PlatformConnection;
  scanner: ScannerService;
  logSink: FileLogSink;
  logger: Logger;
  host: ManagerHost;
  platformOrigin: () => string | null;
  now?: () => number;
}

/** The store manager's console in main; the dispatcher lets only an open console session through to it. */
export function createManagerHandlers(options: ManagerServiceOptions) {
  const { config, secrets, connection, session, logger, now = Date.now } = options;
  /** The last scan the renderer acted on: when (main's clock) and from where, never what. */
  let reportedScan: { at: number; source: ScanSource } | null = null;

  const consoleSettings = async (): Promise<ConsoleSettings> => {
    const { manager: _pin, ...rest } = config.get();
    return { demo: config.isDemo(), config: rest, lockedKeys: config.lockedKeys(), secrets: await secrets.status() };
  };

  /** Settings as a portable file: never secrets, never the PIN hash. */
  const exportable = () => {
    const { manager: _pin, ...rest } = config.get();
    return rest;
  };

  return withConsoleErrors({
    managerStatus: async (_input, connection) => session.status(connection),
    unlockManager: ({ pin }, connection) => session.unlock(pin, connection),
    lockManager: async (_input, connection) => {
      session.lock(connection);
      return null;
    },
    setManagerPin: async ({ pin }, connection) => {
      config.set('manager.pinHash', await hashPin(pin));
      session.keepOpen(connection);
      logger.info('manager PIN set');
      return session.status(connection);
    },

    getConsoleSettings: consoleSettings,

    updateSettings: async ({ values }) => {
      if (Object.keys(values).some((key) => key.startsWith('manager.'))) {
        throw new BridgeFailure('validation', 'the PIN is changed with its own call');
      }
      config.setMany(values);
      logger.info('settings changed in the console', { keys: Object.keys(values) });
      // A new platform origin removes the stored secrets: the answer shows them gone.
      await options.secretOrigin.reconcile();
      return consoleSettings();
    },

    setSecret: async ({ name, value }) => {
      await storeSecretFor(secrets, name, value, originOf(config.get().api.baseUrl), logger);
      logger.info('secret stored from the console', { name });
      return secrets.status();
    },

    removeSecret: async ({ name }) => {
      await secrets.remove(name);
      logger.info('secret removed from the console', { name });
      return secrets.status();
    },

    testConnection: async ({ baseUrl, apiKey, shopUuid }) => {
      // A stored key goes only to the origin it was stored for, never to one being tried out.
      await options.secretOrigin.settled();
      const key = apiKey ?? (await storedSecretsFor(secrets, originOf(baseUrl))).apiKey;
      const client = createLoyaltyClient({ baseUrl, credentials: async () => ({ apiKey: key }), retries: 0, timeoutMs: 8_000 });
      const checks: Array<{ name: string; ok: boolean; detail: string }> = [];
      const check = async (name: string, run: () => Promise<string>) => {
        try {
          checks.push({ name, ok: true, detail: await run() });
        } catch (error) {
          checks.push({ name, ok: false, detail: error instanceof LoyaltyError ? `${error.kind}: ${error.message}` : String(error) });
        }
      };
      const loopback = isLoopbackUrl(new URL(baseUrl));
      checks.push({ name: 'https', ok: loopback || baseUrl.startsWith('https://'), detail: loopback ? 'loopback' : new URL(baseUrl).protocol });
      await check('vouchers', async () => `${(await client.listVouchers({ limit: 1 })).meta.total} vouchers`);
      await check('reward attributes', async () => `${(await client.listRewardAttributes()).data.length} attributes`);
      if (shopUuid) await check('shop', () => checkShop(client, shopUuid));
      return { ok: checks.every((item) => item.ok), checks };
    },

    exportSettings: async () => {
      const stamp = new Date(now()).toISOString().slice(0, 10);
      return deliver(`loyalty-kiosk-settings-${stamp}.json`, `${JSON.stringify(exportable(), null, 2)}\n`);
    },

    importSettings: async ({ json }) => {
      const keys = importSettings(config, json);
      logger.info('settings imported in the console', { keys: keys.length });
      await options.secretOrigin.reconcile();
      return consoleSettings();
    },

    adminListVouchers: async (query) => {
      const answer = await connection.client().listVouchers(query);
      return {
        vouchers: answer.data.map(toAdminVoucher),
        page: answer.meta.current_page,
        lastPage: answer.meta.last_page,
        total: answer.meta.total,
      };
    },
    adminFindVoucher: async ({ code }) => toAdminVoucher((await connection.client().findVoucher({ code })).data),
    adminCreateVoucher: async (body) => toAdminVoucher((await connection.client().createVoucher(body)).data),
    adminUpdateVoucher: async ({ voucherUuid, ...body }) =>
      toAdminVoucher((await connection.client().updateVoucher({ voucher_uuid: voucherUuid, ...body })).data),
    adminListRewardAttributes: async () => (await connection.client().listRewardAttributes()).data.map(toAdminRewardAttribute),
    adminCreateRewardAttribute: async (body) => {
      await connection.client().createRewardAttribute(body);
      // The list gives the attribute in the one shape the console shows (the create answer differs).
      const created = (await connection.client().listRewardAttributes()).data.find((item) => item.name === body.name);
      if (!created) throw new BridgeFailure('bad_response', 'the new attribute is not in the list');
      return toAdminRewardAttribute(created);
    },

    // Open without the PIN: shoppers' scans are reported while the console is locked.
    reportScan: async ({ source }) => {
      reportedScan = { at: now(), source };
      return null;
    },
    getDiagnostics: async () => diagnostics(),
    exportDiagnostics: async () => {
      // The whole log, rotated files included: it was redacted as it was written.
      const bundle = { createdAt: new Date(now()).toISOString(), diagnostics: await diagnostics(), settings: exportable(), logs: options.logSink.files() };
      const stamp = new Date(now()).toISOString().replace(/[:.]/g, '-');
      return deliver(`loyalty-kiosk-diagnostics-${stamp}.json`, `${JSON.stringify(bundle, null, 2)}\n`);
    },
    restartKiosk: async () => {
      logger.info('restart requested in the console');
      setImmediate(() => options.host.restart());
      return null;
    },
    quitKiosk: async () => {
      logger.info('quit requested in the console');
      setImmediate(() => options.host.quit());
      return null;
    },
  } satisfies Partial<CallHandlers>);

  async function deliver(fileName: string, content: string) {
    if (!options.host.saveFile) return { fileName, content, delivery: 'download' as const };
    const savedTo = await options.host.saveFile(fileName, content);
    if (savedTo) logger.info('export saved', { fileName });
    return savedTo ? { fileName, content, delivery: 'saved' as const, savedTo } : { fileName, content, delivery: 'cancelled' as const };
  }

  /** The scanner's state and the latest scan: a reported one, or a serial one main saw itself (also in the scanner test). */
  function scannerDiagnostics() {
    const scanner = options.scanner.status();
    const serial = scanner.lastScanAt === undefined ? null : { at: scanner.lastScanAt, source: 'serial' as const };
    const last = reportedScan && reportedScan.at >= (serial?.at ?? 0) ? reportedScan : serial;
    return { ...scanner, lastScanAt: last?.at, lastScanSource: last?.source };
  }

  async function diagnostics() {
    const started = performance.now();
    let reachable = false;
    let problem: string | null = null;
    try {
      await connection.client().listVouchers({ limit: 0 });
      reachable = true;
    } catch (error) {
      problem = error instanceof LoyaltyError ? `${error.kind}${error.status ? ` (${error.status})` : ''}` : String(error);
    }
    return {
      version: options.version,
      demo: config.isDemo(),
      platformOrigin: options.platformOrigin(),
      api: { reachable, latencyMs: reachable ? Math.round(performance.now() - started) : null, problem },
      secrets: await secrets.status(),
      scanner: scannerDiagnostics(),
      log: options.logSink.drops(),
      logTail: options.logSink.tail(200),
    };
  }
}
