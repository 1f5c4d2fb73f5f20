import fs from 'node:fs';
import path from 'node:path';
import { ConfigStore } from '../config/config-store.node.ts';
import { provisioningFilePath, readProvisioning } from '../config/provisioning.node.ts';
import type { LogFields, Logger } from '../logging/logger.std.ts';
import { createLoyaltyClient, type LoyaltyClient } from '../loyalty/client.node.ts';
import { LoyaltyError } from '../loyalty/errors.std.ts';
import { checkShop } from '../manager/shop-check.node.ts';
import { serialSettingsFrom } from '../scanner/scanner-service.node.ts';
import { listSerialPorts } from '../scanner/serial-ports.node.ts';
import type { SecretStatus, SecretStore } from '../secrets/secret-store.node.ts';
import { keyringProtection } from '../secrets/keyring-protection.node.ts';
import { brokerPasswordFor, originOf, storedSecretsFor } from '../secrets/secret-origin.node.ts';
import type { KioskConfig } from '../../common/config-schema.std.ts';
import { checkBrokerConnection } from '../fleet/broker-check.node.ts';
import { dataDirHolder } from '../paths/data-dir-lock.node.ts';
import { FeedError, readFeed } from '../update/update-feed.node.ts';
import { openLedgerToRead, type LedgerStatus } from '../ledger/ledger.node.ts';
import { dataFiles } from '../paths/data-files.node.ts';
import { EscPosPrinter, type PrinterCheck } from '../printer/escpos-printer.node.ts';
import { openPrinterLink } from '../printer/printer-link.node.ts';

export interface DoctorCheck {
  name: string;
  status: 'OK' | 'FAIL' | 'SKIP';
  detail: string;
}

const ok = (name: string, detail: string): DoctorCheck => ({ name, status: 'OK', detail });
const fail = (name: string, detail: string): DoctorCheck => ({ name, status: 'FAIL', detail });
const skip = (name: string, detail: string): DoctorCheck => ({ name, status: 'SKIP', detail });

/** A slow platform is a finding, not a reason for the doctor to hang. */
const API_TIMEOUT_MS = 8_000;

export interface DoctorOptions {
  dataDir: string;
  logger: Logger;
  secrets: SecretStore;
  /**
   * Inside the kiosk: its own fleet link. The broker names each connection by its user, so a
   * second login as the kiosk would push that link off: the doctor reports the link instead.
   */
  fleetLink?: () => { state: string; lastError: string | null };
  /** Inside the kiosk: its own ledger, as it writes it. Outside, the file is read. */
  ledger?: () => LedgerStatus;
  /** Inside the kiosk: its printer, asked in turn with its slips. Outside, the printer is asked directly. */
  printer?: () => Promise<PrinterCheck>;
}

/** Everything a kiosk needs to serve, checked the way the kiosk itself would use it. */
export async function runDoctor(options: DoctorOptions): Promise<DoctorCheck[]> {
  const { store, problems } = openConfigNoting(options.dataDir, options.logger);
  const secrets = await options.secrets.status();
  const keychain =
    secrets.keychain === 'available' ? ok('keychain', `reachable; ${keyringProtection()}`) : fail('keychain', secrets.reason ?? 'unreachable');
  if (problems.length > 0) return [fail('config', `the kiosk would log: ${problems.join('; ')}`), keychain];

  const config = store.get();
  const locked = store.lockedKeys().length;
  const baseUrl = config.api.baseUrl;
  return [
    ok('config', `valid; ${locked === 0 ? 'no keys' : locked === 1 ? '1 key' : `${locked} keys`} locked by the provisioning file`),
    ok('mode', baseUrl === null ? 'demo (embedded sandbox)' : `connected to ${new URL(baseUrl).origin}`),
    keychain,
    ...(baseUrl === null ? demoChecks() : await connectedChecks(baseUrl, store, secrets, options)),
    await scannerCheck(config.scanner),
    await brokerCheck(config.fleet, secrets, options),
    await updateFeedCheck(config.update),
    ledgerCheck(options),
    await printerCheck(config.printer, options),
  ];
}

/** The receipt printer, asked how it is (DLE EOT): ready, or why not; nothing to ask without one. */
async function printerCheck(printer: KioskConfig['printer'], options: DoctorOptions): Promise<DoctorCheck> {
  if (printer.kind === 'none') return skip('printer', 'no receipt printer (printer.kind none): the proof is on screen only');
  if (printer.kind === 'preview') return ok('printer', 'preview only: each slip is kept as an SVG in the data folder');
  const where = printer.kind === 'network' ? `${printer.host}:${printer.port}` : `${printer.path}`;
  const check = await (options.printer?.() ?? new EscPosPrinter(() => openPrinterLink(printer)).check());
  if (!check.ready) return fail('printer', `${printer.kind} printer at ${where}: ${check.reason.replaceAll('_', ' ')}${printer.required ? '; printer.required is on, so no voucher is redeemed' : ''}`);
  return ok('printer', `${printer.kind} printer at ${where}: ready${check.state.paperNearEnd ? ', paper near its end' : ''}`);
}

/**
 * The redemption ledger: writable (the running kiosk says so), or readable and sound (its file,
 * when no kiosk runs); and no damaged ledger kept aside in the data folder, whose rows the reports
 * no longer count.
 */
function ledgerCheck({ dataDir, ledger }: DoctorOptions): DoctorCheck {
  const file = dataFiles(dataDir).ledger;
  const keptAside = fs.readdirSync(dataDir).filter((name) => name.startsWith(`${path.basename(file)}.corrupt-`) && !/-(wal|shm)$/.test(name));
  if (keptAside.length > 0) return fail('ledger', `a damaged ledger was kept aside (${keptAside.join(', ')}): its rows are in no report; keep it for the records, then move it out of the data folder`);
  if (ledger) {
    const { writable, problem, shift, reconciliation } = ledger();
    return writable
      ? ok('ledger', `writable, shift ${shift ?? '?'} open${reconciliationNote(reconciliation)}`)
      : fail('ledger', `${problem ?? 'cannot be written'}: the kiosk refuses redemptions until it can`);
  }
  if (!fs.existsSync(file)) return ok('ledger', 'no redemption recorded yet');
  try {
    const reader = openLedgerToRead(file);
    const { shift, reconciliation } = reader.status();
    reader.close();
    return ok('ledger', `readable and sound, shift ${shift ?? '?'} open${reconciliationNote(reconciliation)}`);
  } catch (error) {
    return fail('ledger', `${file} cannot be read: ${(error as Error).message}`);
  }
}

/** What the platform said of the ledger's Zs, when there is anything to say. */
function reconciliationNote({ mismatches, unreconciledShifts }: LedgerStatus['reconciliation']): string {
  const notes = [
    mismatches > 0 && `the platform disagrees with ${mismatches} voucher${mismatches === 1 ? '' : 's'} of the newest reconciled Z (kioskctl report show N)`,
    unreconciledShifts > 0 && `${unreconciledShifts} closed shift${unreconciledShifts === 1 ? '' : 's'} still to check against the platform`,
  ].filter(Boolean);
  return notes.length > 0 ? `; ${notes.join('; ')}` : '';
}

/** The update feed, read as the kiosk reads it: reachable, an electron-builder file, a version. */
async function updateFeedCheck({ feedUrl, channel }: KioskConfig['update']): Promise<DoctorCheck> {
  if (feedUrl === null) return skip('update', 'updates are off (update.feedUrl is not set)');
  try {
    const { url, release } = await readFeed(feedUrl, channel);
    return ok('update', `${url} offers ${release.version}${release.stagingPercentage === undefined ? '' : ` to ${release.stagingPercentage}% of kiosks`}`);
  } catch (error) {
    if (!(error instanceof FeedError)) throw error;
    return fail('update', error.message);
  }
}

function demoChecks(): DoctorCheck[] {
  return [
    skip('credentials', 'demo mode: the sandbox\'s own'),
    skip('api', 'demo mode: the embedded sandbox starts with the app'),
    skip('shop', 'demo mode: a sandbox shop'),
    skip('pat', 'demo mode: the sandbox\'s own'),
  ];
}

async function connectedChecks(baseUrl: string, store: ConfigStore, status: SecretStatus, options: DoctorOptions): Promise<DoctorCheck[]> {
  const shopUuid = store.get().api.shopUuid;
  const noShop = fail('shop', 'api.shopUuid is not set (kioskctl config set api.shopUuid <uuid>)');
  if (status.keychain === 'unavailable') {
    return [skip('credentials', 'the keychain is unreachable'), skip('api', 'needs the api key'), shopUuid ? skip('shop', 'needs the credentials') : noShop];
  }
  if (!status.stored.apiKey) {
    const credentials = fail('credentials', 'no api key stored (printf %s "$KEY" | kioskctl secrets set api-key)');
    return [credentials, skip('api', 'needs the api key'), shopUuid ? skip('shop', 'needs the api key') : noShop];
  }
  // Secrets stored before the URL belong to it, as the kiosk decides at start (doctor only looks:
  // it leaves the binding to the kiosk); another origin's are never sent.
  const origin = originOf(baseUrl);
  const bound = await options.secrets.boundOrigin('platform');
  if (bound !== null && bound !== origin) {
    const credentials = fail('credentials', `stored for ${bound}, not ${origin ?? baseUrl}: the kiosk removes them when it starts; store this platform's`);
    return [credentials, skip('api', 'needs the api key'), shopUuid ? skip('shop', 'needs the api key') : noShop];
  }
  // The keychain's credentials as the kiosk will read them: portal sessions prefer the access token.
  const credentials = () => storedSecretsFor(options.secrets, origin, { unboundCounts: true });
  const client = createLoyaltyClient({ baseUrl, credentials, retries: 0, timeoutMs: API_TIMEOUT_MS });
  const others = [status.stored.accessToken && 'access token', status.stored.personalAccessToken && 'pat'].filter(Boolean);
  return [
    ok('credentials', ['api key', ...others].join(', ') + ' stored'),
    await apiCheck(client),
    shopUuid ? await shopCheck(client, shopUuid, status.stored.accessToken ? 'access token' : 'api key') : noShop,
    // Only Check Voucher Validity takes the pat, and only for a real voucher: nothing cheap proves it.
    skip('pat', status.stored.personalAccessToken ? 'stored, not verified (no check without a voucher)' : 'not stored'),
  ];
}

/** The kiosk's own health probe (List Vouchers, limit 0): one cheap call that needs the api key. */
async function apiCheck(client: LoyaltyClient): Promise<DoctorCheck> {
  const started = performance.now();
  try {
    await client.listVouchers({ limit: 0 });
    return ok('api', `reachable, api key accepted (List Vouchers in ${Math.round(performance.now() - started)} ms)`);
  } catch (error) {
    if (!(error instanceof LoyaltyError)) throw error;
    if (error.kind === 'auth') return fail('api', `reachable, but the api key was refused (${error.status ?? 'no status'})`);
    return fail('api', `${error.kind}: ${error.message}`);
  }
}

/** The console's shop check: a portal session for the shop, with the credential the kiosk would use. */
async function shopCheck(client: LoyaltyClient, shopUuid: string, credential: string): Promise<DoctorCheck> {
  try {
    return ok('shop', `${await checkShop(client, shopUuid)} (${shopUuid}; portal session created with the ${credential})`);
  } catch (error) {
    if (!(error instanceof LoyaltyError)) throw error;
    return fail('shop', `${shopUuid} refused with the ${credential}: ${error.kind}${error.status ? ` (${error.status})` : ''}: ${error.message}`);
  }
}

async function scannerCheck(scanner: KioskConfig['scanner']): Promise<DoctorCheck> {
  if (scanner.connection === 'keyboard') return ok('scanner', 'keyboard input: nothing to check');
  const settings = serialSettingsFrom(scanner);
  if (!settings) return fail('scanner', 'serial, but scanner.serial.path is not set');
  const port = `${settings.path} at ${settings.baudRate} baud`;
  if (fs.existsSync(settings.path)) return ok('scanner', `${port}: the device exists`);
  // Windows names ports (COM3) that are no files; the OS list knows them.
  const listed = await listSerialPorts().catch(() => []);
  if (listed.some((item) => item.path === settings.path)) return ok('scanner', `${port}: listed by the OS`);
  const known = listed.map((item) => item.path).join(', ');
  return fail('scanner', `${settings.path} not found (${known ? `ports: ${known}` : 'no serial ports listed'})`);
}

/**
 * The fleet broker, reached as the kiosk would: its username, the mqtt-password stored for it
 * (never another broker's). Never while the kiosk itself is connected as that user: the broker
 * would push the kiosk off for the check (it names each connection by its user).
 */
async function brokerCheck(fleet: KioskConfig['fleet'], status: SecretStatus, { secrets, dataDir, fleetLink }: DoctorOptions): Promise<DoctorCheck> {
  const { url, username, topicPrefix } = fleet.mqtt;
  if (!url) return skip('broker', 'no fleet broker (fleet.mqtt.url is not set)');
  if (fleetLink) return ownLinkCheck(fleetLink());
  const holder = dataDirHolder(dataDir);
  if (holder !== null) {
    return skip('broker', `the kiosk running on this data folder (process ${holder}) holds its connection: a second login as its user would push it off; its console's Diagnostics show the link`);
  }
  if (status.keychain === 'unavailable') return skip('broker', 'needs the mqtt-password from the keychain, which is unreachable');
  const { password, needed } = await brokerPasswordFor(secrets, originOf(url));
  if (needed) return fail('broker', `no mqtt-password for ${originOf(url)}: the one stored was for another broker (printf %s "$PASSWORD" | kioskctl secrets set mqtt-password)`);
  const { connected, detail } = await checkBrokerConnection({ url, username, password, clientIdPrefix: `${topicPrefix}-${fleet.kioskId ?? 'kiosk'}` });
  return connected ? ok('broker', detail) : fail('broker', detail);
}

/** The kiosk's own fleet link, as the kiosk that runs the doctor holds it. */
function ownLinkCheck({ state, lastError }: { state: string; lastError: string | null }): DoctorCheck {
  if (state === 'online') return ok('broker', "the kiosk's own link is online");
  return fail('broker', `the kiosk's own link is ${state}${lastError ? `: ${lastError}` : ''}`);
}

/**
 * The settings as the kiosk would open them, read-only (a broken file is reported, never moved),
 * with what the kiosk would complain about: the store's findings, and the provisioning file's
 * problems (which it only logs).
 */
function openConfigNoting(dataDir: string, logger: Logger): { store: ConfigStore; problems: string[] } {
  const problems: string[] = [];
  const noting: Logger = {
    debug: (message, fields) => logger.debug(message, fields),
    info: (message, fields) => logger.info(message, fields),
    warn: (message, fields) => logger.warn(message, fields),
    error: (message, fields?: LogFields) => {
      const why = fields?.reason ?? (Array.isArray(fields?.unknown) ? fields.unknown.join(', ') : undefined);
      problems.push(why === undefined ? message : `${message}: ${String(why)}`);
      logger.error(message, fields);
    },
    child: (fields) => logger.child(fields),
  };
  const store = new ConfigStore({ dataDir, logger, readOnly: true, locked: readProvisioning(provisioningFilePath(), noting) });
  const found = store.findings().map(({ problem, detail }) => (detail === null ? problem : `${problem}: ${detail}`));
  return { store, problems: [...problems, ...found] };
}
