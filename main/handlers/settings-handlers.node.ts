import type { CallHandlers } from '../bridge/dispatcher.std.ts';
import { BridgeFailure } from '../bridge/dispatcher.std.ts';
import type { ConfigStore } from '../config/config-store.node.ts';
import { importSettings } from '../config/settings-import.node.ts';
import { itOnlyRefusal } from '../config/config-keys.std.ts';
import type { Logger } from '../logging/logger.std.ts';
import type { SecretStore } from '../secrets/secret-store.node.ts';
import { configuredOrigins, storeSecretFor, type SecretOriginGuard } from '../secrets/secret-origin.node.ts';
import type { ConsoleSettings } from '../../common/manager-views.std.ts';
import { checkConnection } from '../manager/connection-check.node.ts';
import { openSetupCard, SetupCardError } from '../manager/setup-card.node.ts';
import type { ExportDelivery } from '../manager/export-delivery.std.ts';

/** A setup card's content, or a validation failure that says in words why it cannot be used. */
function openCard(card: string, code: string) {
  try {
    return openSetupCard(card, code);
  } catch (error) {
    if (error instanceof SetupCardError) throw new BridgeFailure('validation', error.message);
    throw error;
  }
}

/** Settings as a portable file (also in the diagnostics bundle): never secrets, never the PIN hash. */
export function exportableSettings(config: ConfigStore) {
  const { manager: _pin, ...rest } = config.get();
  return rest;
}

/** The console's settings and the keychain's secrets: read, change, test, export and import. */
export function createSettingsHandlers(options: {
  config: ConfigStore;
  secrets: SecretStore;
  /** Removes the stored secrets when the configured platform moves to another origin. */
  secretOrigin: SecretOriginGuard;
  deliver: ExportDelivery;
  logger: Logger;
  now: () => number;
  /** This kiosk's setup code while it is fresh (no PIN yet): it opens setup cards; null after. */
  setupCode: () => string | null;
}) {
  const { config, secrets, secretOrigin, logger } = options;
  const consoleSettings = async (): Promise<ConsoleSettings> => ({
    demo: config.isDemo(),
    config: exportableSettings(config),
    lockedKeys: config.lockedKeys(),
    secrets: await secrets.status(),
  });

  return {
    getConsoleSettings: consoleSettings,
    updateSettings: async ({ values }) => {
      if (Object.keys(values).some((key) => key.startsWith('manager.'))) {
        throw new BridgeFailure('validation', 'the PIN is changed with its own call');
      }
      const itOnly = itOnlyRefusal(values, (key) => config.getKey(key));
      if (itOnly) throw new BridgeFailure('forbidden', itOnly);
      config.setMany(values);
      logger.info('settings changed in the console', { keys: Object.keys(values) });
      // A new platform origin removes the stored secrets: the answer shows them gone.
      await secretOrigin.reconcile();
      return consoleSettings();
    },
    setSecret: async ({ name, value }) => {
      await storeSecretFor(secrets, name, value, configuredOrigins(config.get()), logger);
      logger.info('secret stored from the console', { name });
      return secrets.status();
    },
    removeSecret: async ({ name }) => {
      await secrets.remove(name);
      logger.info('secret removed from the console', { name });
      return secrets.status();
    },
    testConnection: (input) => checkConnection({ secrets, secretOrigin }, input),
    connectWithSetupCard: async ({ card }) => {
      const code = options.setupCode();
      if (code === null) throw new BridgeFailure('forbidden', 'a setup card connects a fresh kiosk only: this one has a manager PIN');
      const content = openCard(card, code);
      // The key goes to the address it was checked against, never to another one provisioning keeps.
      if (config.isLocked('api.baseUrl') && config.get().api.baseUrl !== content.baseUrl) {
        throw new BridgeFailure('validation', "this kiosk's platform address is set by its provisioning file, and the card is for another");
      }
      const check = await checkConnection({ secrets, secretOrigin }, { baseUrl: content.baseUrl, apiKey: content.apiKey, shopUuid: content.shopUuid ?? undefined });
      if (!check.ok) return { check, settings: null };
      const values = Object.fromEntries(Object.entries({ 'api.baseUrl': content.baseUrl, 'api.shopUuid': content.shopUuid }).filter(([key]) => !config.isLocked(key)));
      config.setMany(values);
      await secretOrigin.reconcile();
      await storeSecretFor(secrets, 'apiKey', content.apiKey, configuredOrigins(config.get()), logger);
      logger.info('connected from a setup card', { event: 'setup.card_connected', keys: Object.keys(values) });
      return { check, settings: await consoleSettings() };
    },
    exportSettings: async () => {
      const stamp = new Date(options.now()).toISOString().slice(0, 10);
      return options.deliver(`loyalty-kiosk-settings-${stamp}.json`, `${JSON.stringify(exportableSettings(config), null, 2)}\n`);
    },
    importSettings: async ({ json }) => {
      const keys = importSettings(config, json, { fromConsole: true });
      logger.info('settings imported in the console', { keys: keys.length });
      await secretOrigin.reconcile();
      return consoleSettings();
    },
  } satisfies Partial<CallHandlers>;
}
