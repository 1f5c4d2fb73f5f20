import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { serialQueue } from '../../base/queue.std.ts';
import { type KioskConfig, kioskIdLevel } from '../../common/config-schema.std.ts';
import type { EventBus } from '../bridge/event-bus.std.ts';
import type { ConfigStore } from '../config/config-store.node.ts';
import { setupNeededText } from '../config/settings-view.std.ts';
import type { FileLogSink } from '../logging/file-logger.node.ts';
import type { Logger } from '../logging/logger.std.ts';
import type { ServiceHealth } from '../loyalty/service-health.node.ts';
import type { ScannerService } from '../scanner/scanner-service.node.ts';
import { brokerPasswordFor, originOf } from '../secrets/secret-origin.node.ts';
import type { SecretStore } from '../secrets/secret-store.node.ts';
import type { FleetClient, FleetClientOptions, FleetCommandHandler } from './fleet-client.node.ts';
import { DesiredSettingsLayers } from './desired-settings.node.ts';
import { type CommandMemory, commandMemory } from './command-memory.node.ts';
import { CommandLog } from './command-log.std.ts';
import { discoveryPublisher } from './discovery-publisher.node.ts';
import { type DiscoveryMessage, discoveryMessages, discoveryRefusal } from './home-assistant.std.ts';
import type { FleetCommandName, FleetHealth } from './fleet-messages.std.ts';
import type { KioskActivity } from '../activity/kiosk-activity.std.ts';
import type { UpdateService } from '../update/update-service.node.ts';
import type { LastScan } from '../scanner/last-scan.std.ts';
import type { ScheduleService } from '../schedule/schedule-service.node.ts';
import type { FleetConnection } from '../../common/manager-views.std.ts';
import { dataFiles } from '../paths/data-files.node.ts';
import type { Ledger, LedgerStatus } from '../ledger/ledger.node.ts';
import type { SlipService } from '../printer/slip-service.node.ts';

export interface FleetServiceParts {
  dataDir: string;
  version: string;
  config: ConfigStore;
  secrets: SecretStore;
  events: EventBus;
  logger: Logger;
  logSink: FileLogSink;
  health: ServiceHealth;
  scanner: ScannerService;
  /** The last scan from any scanner. */
  lastScan: Pick<LastScan, 'latest'>;
  /** Quiet hours: whether the kiosk sleeps now. */
  schedule: Pick<ScheduleService, 'asleep'>;
  /** What each command the broker may send does (main/fleet-commands/, wired by the composition root). */
  commands: FleetCommands;
  /** Whether a shopper, a manager or a voucher lock would be cut short. */
  activity: KioskActivity;
  /** The auto-update: its state goes into health, and update-check runs a check. */
  update: UpdateService;
  /** The redemption ledger: whether it can be written goes into health. */
  ledger: Pick<Ledger, 'status'>;
  /** The receipt printer's slips: how the printer was when last asked goes into health. */
  slips: Pick<SlipService, 'health'>;
  /** Resolves once the stored secrets follow the config as it is now (the broker password its broker). */
  secretsSettled: () => Promise<void>;
}

export type FleetCommands = Record<FleetCommandName, FleetCommandHandler>;

export interface FleetService {
  /** The connection to the broker now, for diagnostics; `off` when no broker is configured. */
  status(): FleetConnection;
  close(): Promise<void>;
}

/**
 * The kiosk's fleet link, following the config: started when `fleet.mqtt.url` is set, started
 * again when any `fleet.*` setting changes, stopped when it is cleared or the kiosk closes.
 */
export function startFleetService(parts: FleetServiceParts): FleetService {
  const { config, logger } = parts;
  const startedAt = Date.now();
  let client: FleetClient | null = null;
  const { commands } = parts;
  const desired = new DesiredSettingsLayers({ config, logger, heldFile: dataFiles(parts.dataDir).fleetSettingsHeld });
  const health = async () => ({ ...(await fleetHealth(parts, startedAt)), desiredSettings: desired.state() });
  const memory = commandMemory(dataFiles(parts.dataDir).fleetCommands, logger);
  const commandLog = new CommandLog();
  const publishDiscovery = discoveryPublisher(dataFiles(parts.dataDir).fleetDiscovery, logger);
  // Health tells at once how a layer of desired settings went.
  const settings = {
    connected: (topics: readonly string[]) => desired.connected(topics),
    take: (topic: string, payload: Buffer) => (desired.take(topic, payload), void client?.publishHealth()),
    settled: () => desired.settled(),
  };
  const link: FleetLink = { parts, health, commands, memory, commandLog, publishDiscovery, settings };

  let applied = '';
  // Each switch waits for the one before: a client is fully closed before the next connects.
  const switches = serialQueue();
  const apply = (current: KioskConfig) => {
    const key = JSON.stringify(current.fleet);
    if (key === applied) return;
    applied = key;
    void switches
      .run(async () => {
        await client?.close();
        client = current.fleet.mqtt.url ? await connect(current, link) : null;
      })
      .catch((error: unknown) => logger.error('the fleet link could not be switched', { error: String(error) }));
  };
  apply(config.get());
  const stopWatching = config.onChange((current) => {
    apply(current);
    // The settings' fingerprint and the desired settings' drift are in health.
    void client?.publishHealth();
  });
  // Health goes out at each change the kiosk already announces, besides the timer.
  const stopListening = parts.events.subscribe((event) => {
    if (event === 'serviceStatus' || event === 'scannerStatus') void client?.publishHealth();
  });
  const stopFollowingUpdate = parts.update.onChange(() => void client?.publishHealth());
  const stopFollowingScreens = parts.activity.onChange(() => void client?.publishHealth());

  return {
    status: () => ({ ...connectionStatus(config.get(), client), recentCommands: commandLog.recent() }),
    async close() {
      stopWatching();
      stopListening();
      stopFollowingUpdate();
      stopFollowingScreens();
      await switches.idle();
      await client?.close();
      client = null;
    },
  };
}

function connectionStatus(current: KioskConfig, client: FleetClient | null): Omit<FleetConnection, 'recentCommands'> {
  const { url } = current.fleet.mqtt;
  const { state, lastError, lastHealthAt } = client?.state() ?? { state: 'off', lastError: null, lastHealthAt: null };
  return {
    state: state === 'closed' ? 'off' : state,
    lastError,
    // The host only: a URL may carry a user and password (mqtt://user:pass@host).
    broker: url ? new URL(url).host : null,
    kioskId: url ? kioskIdOf(current) : null,
    lastHealthAt,
  };
}

/**
 * Who the kiosk is on the fleet's topics: `fleet.kioskId`, else the hostname, if it is what a kiosk
 * id may be. A host named `all` or `group` (the fleet-wide and group topics), or with `/`, `+` or
 * `#` (topic levels and wildcards) in its name, is not taken as the id: `problem` says so.
 */
export function kioskIdentity(current: KioskConfig, hostname = os.hostname()): { kioskId: string } | { problem: string } {
  if (current.fleet.kioskId !== null) return { kioskId: current.fleet.kioskId };
  const checked = kioskIdLevel.safeParse(hostname);
  if (checked.success) return { kioskId: checked.data };
  const why = checked.error.issues[0]?.message ?? 'not a kiosk id';
  return { problem: `the hostname ${JSON.stringify(hostname)} cannot be the kiosk id (${why}): set fleet.kioskId` };
}

/** The kiosk's id (fleet.kioskId, else its hostname), as health and the ledger's rows name it; null when there is none fit. */
export const kioskIdOf = (current: KioskConfig) => {
  const identity = kioskIdentity(current);
  return 'kioskId' in identity ? identity.kioskId : null;
};

/** What every fleet client of this kiosk shares, whichever broker it connects to. */
interface FleetLink {
  parts: FleetServiceParts;
  health: () => Promise<FleetHealth>;
  commands: FleetCommands;
  memory: CommandMemory;
  commandLog: CommandLog;
  publishDiscovery: ReturnType<typeof discoveryPublisher>;
  settings: FleetClientOptions['settings'];
}

async function connect(current: KioskConfig, { parts, health, commands, memory, commandLog, publishDiscovery, settings }: FleetLink): Promise<FleetClient> {
  const broker = originOf(current.fleet.mqtt.url);
  const identity = kioskIdentity(current);
  if ('problem' in identity) return refusedLink(identity.problem, parts.logger);
  const { kioskId } = identity;
  const { topicPrefix } = current.fleet.mqtt;
  const discovery = discoveryOf(current, kioskId, parts);
  // Once the secrets follow this config: a password stored for another broker is never read for this one.
  const lookUpPassword = async () => {
    await parts.secretsSettled();
    return brokerPasswordFor(parts.secrets, broker).catch((error: unknown) => {
      parts.logger.warn('the fleet broker password could not be read from the keychain', { error: String(error) });
      return { password: null, needed: false };
    });
  };
  // mqtt.js (about 100 ms to load) only for a kiosk that has a fleet broker to talk to.
  const { startFleetClient } = await import('./fleet-client.node.ts');
  const start = (password: string | null) =>
    startFleetClient({
      url: current.fleet.mqtt.url as string,
      username: current.fleet.mqtt.username,
      password,
      readPassword: async () => (await lookUpPassword()).password,
      kioskId,
      topicPrefix,
      groups: current.fleet.groups,
      onOnline: (publish) => publishDiscovery(discovery, publish),
      health,
      commands,
      memory,
      commandLog,
      settings,
      logger: parts.logger,
    });
  const { password, needed } = await lookUpPassword();
  return needed ? waitForPassword(lookUpPassword, start, parts.logger) : start(password);
}

/**
 * The Home Assistant configs this kiosk wants: none while discovery is off, or when its id cannot
 * have them as it is (said in the log); either way, those it published before are removed.
 */
function discoveryOf(current: KioskConfig, kioskId: string, { version, logger }: FleetServiceParts): DiscoveryMessage[] {
  const { homeAssistant, mqtt } = current.fleet;
  if (!homeAssistant.discovery) return [];
  const refusal = discoveryRefusal(kioskId);
  if (refusal === null) return discoveryMessages({ discoveryPrefix: homeAssistant.prefix, topicPrefix: mqtt.topicPrefix, kioskId, version });
  logger.warn('home assistant discovery is not published', { reason: refusal });
  return [];
}

/** A fleet link that never connects, and says why: the kiosk has no id it may use on the fleet's topics. */
function refusedLink(problem: string, logger: Logger): FleetClient {
  logger.warn('the fleet link is not started', { reason: problem });
  return {
    state: () => ({ state: 'refused', lastError: problem, lastHealthAt: null }),
    publishHealth: async () => {},
    close: async () => {},
  };
}

/** How often a kiosk waiting for its broker's password looks for it in the keychain. */
const PASSWORD_LOOK_MS = 5_000;
const PASSWORD_NEEDED = "the broker's password is needed: the one stored was for another broker and was removed (enter it in the console or with kioskctl secrets set mqtt-password)";

/**
 * The fleet link of a kiosk whose broker moved: it does not connect (nor send the username) until
 * the new broker's password is stored, then connects with it.
 */
function waitForPassword(
  lookUp: () => Promise<{ password: string | null; needed: boolean }>,
  start: (password: string | null) => FleetClient,
  logger: Logger,
): FleetClient {
  logger.warn('fleet link waits for the broker password', { reason: PASSWORD_NEEDED });
  let client: FleetClient | null = null;
  let closed = false;
  let looking = false;
  const look = async () => {
    if (looking) return;
    looking = true;
    const { password, needed } = await lookUp().finally(() => (looking = false));
    if (needed || closed || client) return;
    clearInterval(timer);
    client = start(password);
  };
  const timer = setInterval(
    () => void look().catch((error: unknown) => logger.warn('fleet link password look-up failed', { error: String(error) })),
    PASSWORD_LOOK_MS,
  );
  timer.unref();
  return {
    state: () => client?.state() ?? { state: 'password_needed', lastError: PASSWORD_NEEDED, lastHealthAt: null },
    publishHealth: async () => client?.publishHealth(),
    async close() {
      closed = true;
      clearInterval(timer);
      await client?.close();
    },
  };
}

/** What health is built from. */
export type HealthParts = Pick<FleetServiceParts, 'version' | 'config' | 'health' | 'activity' | 'scanner' | 'lastScan' | 'schedule' | 'logSink' | 'dataDir' | 'update' | 'ledger' | 'slips'>;

/** The kiosk's state for the fleet: no shopper data, no scan value, no secret. Exported for the bench. */
export async function fleetHealth(parts: HealthParts, startedAt: number): Promise<FleetHealth> {
  const scanner = parts.scanner.status();
  const current = parts.config.get();
  const counters = parts.health.counters();
  const update = parts.update.state();
  return {
    at: Date.now(),
    // Never published without an id: a kiosk that has none does not connect.
    kioskId: kioskIdOf(current) ?? '',
    shop: current.api.shopUuid,
    groups: current.fleet.groups,
    settings: settingsFingerprint(current),
    asleep: parts.schedule.asleep(),
    countersSince: counters.since,
    version: parts.version,
    mode: parts.config.isDemo() ? 'demo' : 'connected',
    setupNeeded: setupNeededText(parts.config.provisioningProblems()),
    platform: parts.health.status(),
    platformProbe: parts.health.lastProbe(),
    platformErrors: counters.errors,
    outOfServiceMinutes: Math.round(counters.outOfServiceMs / 6_000) / 10,
    screen: parts.activity.screen(),
    locksHeld: parts.activity.locksHeld(),
    staffCalled: parts.activity.staffCall(),
    ledger: ledgerHealth(parts.ledger.status()),
    printer: parts.slips.health(),
    scanner: { connection: scanner.connection, state: scanner.state, lastScanAt: parts.lastScan.latest()?.at ?? null },
    logLinesDropped: parts.logSink.drops().droppedLines,
    freeDiskBytes: await freeDiskBytes(parts.dataDir),
    uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
    channel: update.channel,
    update,
  };
}

/** The ledger as health tells it: the problem cut to a line, the place of a kept-aside file left out. */
function ledgerHealth({ writable, problem, setAsideTo, reconciliation }: LedgerStatus): NonNullable<FleetHealth['ledger']> {
  return { writable, problem: problem && problem.slice(0, 500), setAside: setAsideTo !== null, ...reconciliation };
}

/**
 * Twelve hex digits of a hash of the settings in force, the same on every kiosk set alike: who the
 * kiosk is (its id, broker user, groups and shop) is left out, and so is the manager section (a
 * PIN hash of few digits could be guessed back from a hash of it).
 */
export function settingsFingerprint(current: KioskConfig): string {
  const { manager: _manager, ...settings } = current;
  const { kioskId: _kioskId, groups: _groups, ...fleet } = settings.fleet;
  const alike = { ...settings, api: { ...settings.api, shopUuid: null }, fleet: { ...fleet, mqtt: { ...fleet.mqtt, username: null } } };
  return crypto.createHash('sha256').update(JSON.stringify(alike)).digest('hex').slice(0, 12);
}

async function freeDiskBytes(dir: string): Promise<number | null> {
  try {
    const stats = await fs.promises.statfs(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}
