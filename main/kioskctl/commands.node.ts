import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, type ConfigStore } from '../config/config-store.node.ts';
import { checkProvisioning, openProvisionedConfig } from '../config/provisioning.node.ts';
import { readBoundedFile } from '../../base/bounded-file.node.ts';
import { importSettings } from '../config/settings-import.node.ts';
import { CONFIG_KEYS } from '../config/config-keys.std.ts';
import { createLogger, FileLogSink } from '../logging/file-logger.node.ts';
import { silentLogger, type Logger } from '../logging/logger.std.ts';
import { ensurePrivateDataDir, folderWriteFailure } from '../paths/data-dir.node.ts';
import { EXIT } from '../process/exit-codes.std.ts';
import { hashPin } from '../manager/pin-hash.node.ts';
import { setupCode } from '../manager/setup-code.node.ts';
import { setupQr, SetupQrRefusal } from './setup-qr.node.ts';
import { Pin, PIN_RULE } from '../../common/input-rules.std.ts';
import { KeychainUnavailableError, KeytarSecretStore, kioskKeychain, type SecretName, type SecretStore } from '../secrets/secret-store.node.ts';
import { configuredOrigins, type ConfiguredOrigins, SecretOriginGuard, storeSecretFor } from '../secrets/secret-origin.node.ts';
import { autostartStatus, configHome, disableAutostart, enableAutostart, shippedUnitExecutable, type AutostartFile, type AutostartSource } from '../autostart/autostart.node.ts';
import { appVersion } from '../paths/build-output.node.ts';
import { NoPreviousInstaller, rollbackToPrevious } from '../update/rollback.node.ts';
import { runningVersion, updateCheckReport, updateStatusReport, type UpdateReport } from '../update/update-report.node.ts';
import { runDoctor } from '../diagnostics/doctor.node.ts';
import { type FleetContext, FleetRefusal, fleetLs, fleetReport, fleetSend, fleetWatch } from './fleet/kioskctl-fleet.node.ts';
import { fleetSettings } from './fleet/fleet-settings.node.ts';
import { printable } from '../../base/csv.std.ts';
import { formatTable } from './table.std.ts';
import { dataFiles } from '../paths/data-files.node.ts';
import { lockDataDir, type DataDirLock } from '../paths/data-dir-lock.node.ts';
import { StartupError } from '../process/startup-error.std.ts';
import { LedgerUnavailable, openKioskLedger, type Ledger } from '../ledger/ledger.node.ts';
import { kioskIdOf } from '../fleet/fleet-service.node.ts';
import { csvOf, readLedger, ReportRefusal, reportText, zListText, zText } from './report/kioskctl-report.node.ts';
import { askRunningKiosk } from './report/running-kiosk.node.ts';
import type { ControlAnswer } from '../../common/control-protocol.std.ts';

export interface KioskctlContext {
  dataDir: string;
  args: string[];
  /** Keychain service name (KIOSK_KEYCHAIN_SERVICE); tests use their own, never a real kiosk's. */
  keychainService?: string;
  /** Where secrets and the PIN come from: argv would leave them in shell history and the process list. */
  stdin: { isTTY: boolean; read(): Promise<string> };
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** The packaged app's autostart files and executable; a checkout's build/linux when left out. */
  autostart?: AutostartSource;
  /** Resolves on Ctrl-C: `fleet watch` runs until then (default: never). */
  untilInterrupted?: () => Promise<void>;
  /** Where an operator's broker password may come from (KIOSKCTL_FLEET_PASSWORD); default none. */
  env?: Record<string, string | undefined>;
  stdoutIsTTY?: boolean;
}

const USAGE = `usage: npm run kioskctl -- [--data DIR] <command>

  config show                 every setting, as JSON
  config get <key>            one setting, as JSON
  config set <key> <value>    change one setting (checked first; nothing is written when refused)
  config import <file>        apply a JSON settings file (like config.json, or part of it): all or nothing
  config keys                 the settable keys
  secrets set <name>          store a credential in the OS keychain, read from stdin
                              (name: api-key, access-token, pat or mqtt-password)
  secrets status              which credentials are stored, never their values
  secrets remove <name>       remove a credential from the keychain
  pin set                     set the manager PIN (4 to 8 digits), read from stdin
  setup-code                  the code a fresh kiosk's setup wizard asks for (no PIN set yet)
  setup-qr --url URL [--shop UUID] [--code CODE] [--svg FILE]
                              a setup card the wizard scans to connect (the API key on stdin),
                              sealed with that kiosk's setup code (default: this data folder's)
  doctor                      check settings, keychain, credentials, API, scanner, fleet broker and ledger
  report x                    the open shift's redemptions so far (an X report: changes nothing)
  report z                    close the shift with a Z report (through the running kiosk when
                              one runs on the data folder: it is the ledger's one writer)
  report list                 the Z reports made so far
  report show <N>             Z report N
  report csv [--from DAY] [--to DAY] [--shift N]
                              the ledger's rows as CSV: the open shift, shift N, or business days
  autostart enable            install the systemd user unit and the XDG autostart entry
                              into $XDG_CONFIG_HOME (default ~/.config)
  autostart disable           remove them
  autostart status            which of them are installed
  update status               version, channel, feed, and what the running kiosk has available
                              and downloaded (from its update-state.json)
  update check                read the feed now: the version it offers, its rollout stage
  update rollback             go back to the installer kept before the last update (AppImage:
                              put back in place; deb, exe: prints the command to run)
  fleet ls [--group G] [--json|--csv]
                              every kiosk on the fleet broker: online or offline, version, update,
                              platform, errors, minutes out of service, locks, scanner, screen
  fleet send <kioskId|--group G|--all> <command> [json] [--timeout S] [--save DIR] [--json]
                              send a fleet command and wait for each kiosk's answer (default 30 s);
                              --save keeps each answer whole in DIR (diagnostics: always, in . by default);
                              --json prints one object per kiosk with its whole result. Exit 0
                              when every kiosk answered ok, 3 when some did not answer (offline,
                              silent, still waiting), 4 when some answered that it failed
  fleet watch [--group G] [--json]
                              the fleet ls table, kept live; changes marked as they happen (--json:
                              one object a line); a lost broker is said, and tried again
  provision check FILE        check a provisioning file before it is deployed: every problem by
                              key, and exit 1 when there is any
  fleet settings set <kioskId|--group G|--all> key=value... [--unset KEY]... [--clear]
                              the desired settings the broker keeps for the fleet, a group or one
                              kiosk (retained): each kiosk applies the fleet's, its groups', then
                              its own, at every connect and on every change
  fleet settings show [--json]
                              every layer of desired settings on the broker
  fleet settings diff [--group G] [--json]
                              each kiosk whose settings in force differ from what its layers ask,
                              and why (refused, locked by provisioning, changed since, offline);
                              exit 3 when any does
  fleet report <kioskId|--group G|--all> [--day YYYY-MM-DD] [--csv]
                              each kiosk's redemptions so far (X), or its Z closed on that day,
                              in one table with a total; the kiosks that did not answer named

  fleet options: --broker URL (default: fleet.mqtt.url), --user NAME, --prefix P, --timeout S
  (the most it waits for the broker, and send for the answers; default 30 s: past it, exit 1),
  and --password-stdin; else the password comes from KIOSKCTL_FLEET_PASSWORD or, for the kiosk's
  own user on its own broker, the keychain. Never from the command line.

Secrets and the PIN are never taken from the command line:
  printf %s "$API_KEY" | npm run kioskctl -- secrets set api-key

Exit codes: 0 done, 1 failed (doctor: something is wrong), 2 refused (nothing changed),
78 the data folder cannot be written.
The data folder defaults to the one the kiosk app uses.
`;

interface Command {
  args: string[];
  /** Takes options and positionals of its own (fleet): the argument count is its to check. */
  ownArgs?: true;
  /** Only looks: the settings are opened read-only, nothing in the data folder is written or moved. */
  readOnly?: true;
  /** What the command reads from stdin; it is handed to run after the arguments. */
  stdin?: string;
  run(context: KioskctlContext, tools: Tools, ...args: string[]): number | Promise<number>;
}

interface Tools {
  logger: Logger;
  config(): ConfigStore;
  secrets(): SecretStore;
}

/** Far above any provisioning file a person writes; a bigger one is refused unread. */
const MAX_PROVISIONING_BYTES = 1024 * 1024;

/** A request refused before anything changed (exit 2). */
class Refused extends Error {}

const PIN_HASH_KEY = 'manager.pinHash';

/** The PIN hash is never printed (it could be attacked offline): only whether there is one. */
const pinHashShown = (hash: string | null) => (hash === null ? 'not set' : 'set');

/** The names an admin types, for the keychain's names. */
const SECRET_ARGS: Record<string, SecretName> = { 'api-key': 'apiKey', 'access-token': 'accessToken', pat: 'personalAccessToken', 'mqtt-password': 'mqttPassword' };

function originsNow(tools: Tools): ConfiguredOrigins {
  return configuredOrigins(tools.config().get());
}

/**
 * The configured platform's and broker's origins, as the kiosk would open its settings (provisioned
 * keys first, migrations applied), opened read-only: nothing is rewritten, racing a `config`
 * command run beside this one.
 */
function configuredOriginsOnDisk(dataDir: string, logger: Logger): ConfiguredOrigins {
  return configuredOrigins(openProvisionedConfig(dataDir, logger, { readOnly: true }).get());
}

/** After a change of the platform's or the broker's origin (from `before`): the old origin's secrets are removed, and the admin told. */
async function followOrigins(context: KioskctlContext, tools: Tools, before: ConfiguredOrigins) {
  const after = originsNow(tools);
  if (after.platform === before.platform && after.broker === before.broker) return;
  const outcome = await new SecretOriginGuard(tools.secrets(), () => after, tools.logger).reconcile();
  if (outcome.platform === 'removed') context.stdout(`stored secrets removed: they were for another platform origin; store them again for ${after.platform}\n`);
  if (outcome.broker === 'removed') context.stdout(`mqtt-password removed: it was for another broker; store the password for ${after.broker}\n`);
}

function secretName(arg: string): SecretName {
  // The argument is not echoed: it may be the secret itself, typed where the name belongs.
  if (!Object.hasOwn(SECRET_ARGS, arg)) throw new Refused(`unknown secret name; use ${Object.keys(SECRET_ARGS).join(', ')}`);
  return SECRET_ARGS[arg] as SecretName;
}

/** A fleet command: the broker's view, never the data folder's files (beyond its settings and keychain). */
function fleetCommand(run: (context: FleetContext) => Promise<number>): Command {
  return {
    args: [],
    ownArgs: true,
    readOnly: true,
    run: async (context, tools, ...args) => {
      try {
        return await run({
          args,
          stdin: context.stdin,
          stdout: context.stdout,
          stderr: context.stderr,
          stdoutIsTTY: context.stdoutIsTTY ?? false,
          config: () => tools.config().get(),
          secrets: () => tools.secrets(),
          untilInterrupted: context.untilInterrupted ?? (() => new Promise(() => {})),
          env: context.env ?? {},
        });
      } catch (error) {
        if (error instanceof FleetRefusal) throw new Refused(error.message);
        context.stderr(`kioskctl: ${(error as Error).message}\n`);
        return EXIT.failed;
      }
    },
  };
}

const commands: Record<string, Command> = {
  'fleet ls': fleetCommand(fleetLs),
  'fleet send': fleetCommand(fleetSend),
  'fleet watch': fleetCommand(fleetWatch),
  'fleet report': fleetCommand(fleetReport),
  'fleet settings': fleetCommand(fleetSettings),
  'provision check': {
    args: ['file'],
    readOnly: true,
    run: (context, _tools, file) => {
      const read = readBoundedFile(file, MAX_PROVISIONING_BYTES);
      if (read.kind !== 'read') throw new Refused(`${file}: ${read.kind === 'missing' ? 'no such file' : read.reason}`);
      const { locked, problems } = checkProvisioning(read.text);
      const keys = Object.keys(locked);
      if (problems.length === 0) {
        context.stdout(`${printable(`${file}: valid; it sets and locks ${keys.length === 0 ? 'nothing' : keys.join(', ')}`)}\n`);
        return EXIT.ok;
      }
      for (const problem of problems) context.stdout(`${printable(`${file}: ${problem}`)}\n`);
      const kept = keys.length > 0 ? 'only its fleet section applies, so the kiosk joins its broker and reports the problem there' : 'nothing of it applies';
      context.stdout(`${printable(`${file}: invalid (${problems.length === 1 ? '1 problem' : `${problems.length} problems`}): a kiosk shows "setup needed" and serves no shopper; ${kept}`)}\n`);
      return EXIT.failed;
    },
  },
  'config show': {
    args: [],
    readOnly: true,
    run: (context, tools) => {
      const config = tools.config().get();
      const shown = { ...config, manager: { ...config.manager, pinHash: pinHashShown(config.manager.pinHash) } };
      context.stdout(`${JSON.stringify(shown, null, 2)}\n`);
      return EXIT.ok;
    },
  },
  'config get': {
    args: ['key'],
    readOnly: true,
    run: (context, tools, key) => {
      const value = tools.config().getKey(key);
      context.stdout(`${JSON.stringify(key === PIN_HASH_KEY ? pinHashShown(value as string | null) : value)}\n`);
      return EXIT.ok;
    },
  },
  'config set': {
    args: ['key', 'value'],
    run: async (context, tools, key, value) => {
      // A hand-typed "hash" would lock every manager out: the PIN has its own command.
      if (key === PIN_HASH_KEY) throw new Refused('manager.pinHash is set with kioskctl pin set (the PIN on stdin)');
      const store = tools.config();
      const origins = originsNow(tools);
      store.setFromText(key, value);
      tools.logger.info('setting changed by kioskctl', { key });
      context.stdout(`${key} = ${JSON.stringify(store.getKey(key))}\n`);
      await followOrigins(context, tools, origins);
      return EXIT.ok;
    },
  },
  'config import': {
    args: ['file'],
    run: async (context, tools, file) => {
      const origins = originsNow(tools);
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch (error) {
        throw new Refused(`${file}: ${(error as Error).message}`);
      }
      let changed: string[];
      try {
        changed = importSettings(tools.config(), text);
      } catch (error) {
        if (error instanceof ConfigError) throw new Refused(`${file}: ${error.message}`);
        throw error;
      }
      tools.logger.info('settings imported by kioskctl', { keys: changed });
      context.stdout(`imported ${changed.length} setting${changed.length === 1 ? '' : 's'} from ${file}\n`);
      await followOrigins(context, tools, origins);
      return EXIT.ok;
    },
  },
  'config keys': {
    args: [],
    readOnly: true,
    run: (context) => {
      context.stdout(`${CONFIG_KEYS.join('\n')}\n`);
      return EXIT.ok;
    },
  },
  'secrets set': {
    args: ['name'],
    stdin: 'the secret',
    run: async (context, tools, arg, value) => {
      await storeSecretFor(tools.secrets(), secretName(arg), value, configuredOriginsOnDisk(context.dataDir, tools.logger), tools.logger);
      context.stdout(`${arg} stored in the keychain\n`);
      return EXIT.ok;
    },
  },
  'secrets status': {
    args: [],
    readOnly: true,
    run: async (context, tools) => {
      const status = await tools.secrets().status();
      const available = status.keychain === 'available';
      const stored = (name: SecretName) => (!available ? 'unknown' : status.stored[name] ? 'stored' : 'not stored');
      context.stdout(
        formatTable([
          // Which kiosk: each kiosk on a machine has its own keychain entries.
          ['kiosk', path.resolve(context.dataDir)],
          ['keychain service', tools.secrets().service],
          ['keychain', available ? 'available' : `unavailable: ${status.reason}`],
          ...Object.entries(SECRET_ARGS).map(([arg, name]) => [arg, stored(name)]),
        ]),
      );
      return available ? EXIT.ok : EXIT.failed;
    },
  },
  'secrets remove': {
    args: ['name'],
    run: async (context, tools, arg) => {
      const removed = await tools.secrets().remove(secretName(arg));
      context.stdout(`${arg} ${removed ? 'removed from the keychain' : 'was not stored'}\n`);
      return EXIT.ok;
    },
  },
  'pin set': {
    args: [],
    stdin: 'the PIN',
    run: async (context, tools, pin) => {
      if (!Pin.safeParse(pin).success) throw new Refused(PIN_RULE);
      // The admin's own PIN: one set at the screen while the keychain could not be read is replaced, and the whole console opens.
      tools.config().setMany({ [PIN_HASH_KEY]: await hashPin(pin), 'manager.secretsUnchecked': false });
      tools.logger.info('manager PIN set by kioskctl');
      context.stdout('manager PIN set\n');
      return EXIT.ok;
    },
  },
  'setup-code': {
    args: [],
    run: (context, tools) => {
      // Only IT, at this computer, reads it: the wizard at the screen asks for it, so touch alone takes over nothing.
      const config = tools.config();
      if (config.get().manager.pinHash !== null) {
        context.stdout('a manager PIN is set: the console opens with it, and no setup code is needed\n');
        return EXIT.ok;
      }
      // Only a fresh (demo) kiosk has a wizard: one with a platform address and no PIN needs the PIN from here.
      if (!config.isDemo()) throw new Refused('this kiosk has a platform address but no manager PIN: it offers no setup wizard; set the PIN with kioskctl pin set');
      context.stdout(`${setupCode(context.dataDir, config)}\n`);
      return EXIT.ok;
    },
  },
  'setup-qr': {
    args: [],
    ownArgs: true,
    stdin: 'the API key',
    run: async (context, tools, ...rest) => {
      // The key comes last, from stdin (never an argument: the shell's history would keep it).
      const apiKey = rest.at(-1)!;
      const localCode = () => {
        const config = tools.config();
        if (config.get().manager.pinHash !== null || !config.isDemo()) throw new Refused('this kiosk is set up already: give the setup code of the kiosk the card is for with --code');
        return setupCode(context.dataDir, config);
      };
      try {
        setupQr(rest.slice(0, -1), apiKey, localCode, context.stdout);
      } catch (error) {
        if (error instanceof SetupQrRefusal) throw new Refused(error.message);
        throw error;
      }
      return EXIT.ok;
    },
  },
  'autostart enable': {
    args: [],
    readOnly: true,
    run: (context) => {
      // A source checkout's kioskctl installs the shipped unit: without the package it would fail at every boot.
      const executable = shippedUnitExecutable();
      if (!context.autostart && !fs.existsSync(executable)) {
        throw new Refused(
          `${executable} does not exist here: the unit starts the installed package, and this is a source checkout. Install the package, or run this checkout's browser host as a user unit (loyalty-kiosk-browser.service, docs/kioskctl.md); nothing was installed`,
        );
      }
      printAutostart(context, enableAutostart(configHome(), context.autostart));
      context.stdout('to start it now: systemctl --user daemon-reload && systemctl --user enable --now loyalty-kiosk.service\n');
      return EXIT.ok;
    },
  },
  'autostart disable': {
    args: [],
    readOnly: true,
    run: (context) => {
      printAutostart(context, disableAutostart(configHome()));
      return EXIT.ok;
    },
  },
  'autostart status': {
    args: [],
    readOnly: true,
    run: (context) => {
      printAutostart(context, autostartStatus(configHome()));
      return EXIT.ok;
    },
  },
  'update status': {
    args: [],
    readOnly: true,
    run: (context, tools) => printUpdateReport(context, updateStatusReport(context.dataDir, tools.config().get(), appVersion())),
  },
  'update check': {
    args: [],
    readOnly: true,
    run: async (context, tools) => printUpdateReport(context, await updateCheckReport(context.dataDir, tools.config().get(), appVersion())),
  },
  'update rollback': {
    args: [],
    run: async (context, tools) => {
      const from = runningVersion(context.dataDir, appVersion());
      let outcome;
      try {
        outcome = await rollbackToPrevious({ dataDir: context.dataDir, runningVersion: from, appImage: process.env.APPIMAGE ?? null });
      } catch (error) {
        if (error instanceof NoPreviousInstaller) throw new Refused(error.message);
        throw error;
      }
      tools.logger.info('update rolled back by kioskctl', { from, to: outcome.version });
      context.stdout(`${printable(from)} is marked failed: the kiosk will not take it from the feed again\n`);
      if (outcome.kind === 'replaced') {
        context.stdout(`${printable(outcome.target)} is ${printable(outcome.version)} again; restart the kiosk to run it: systemctl --user restart loyalty-kiosk.service\n`);
      } else {
        context.stdout(`to install ${printable(outcome.version)}, run (admin rights needed), then restart the kiosk:\n  ${printable(outcome.command)}\n`);
      }
      return EXIT.ok;
    },
  },
  'report x': ledgerLook((context, ledger) => context.stdout(reportText(ledger.xReport()))),
  'report list': ledgerLook((context, ledger) => context.stdout(zListText(ledger))),
  'report show': { ...ledgerLook((context, ledger, number) => context.stdout(zText(ledger, number!))), args: ['N'] },
  'report csv': { ...ledgerLook((context, ledger, ...args) => context.stdout(csvOf(ledger, args))), ownArgs: true },
  'report z': {
    args: [],
    run: (context, tools) => {
      let lock: DataDirLock;
      try {
        // Never two writers: the Z is taken with the data folder held, as a kiosk holds it.
        lock = lockDataDir(context.dataDir);
      } catch (error) {
        if (!(error instanceof StartupError)) throw error;
        // A kiosk holds the folder: it is the writer, so it makes the Z.
        return zThroughRunningKiosk(context);
      }
      const ledger = openKioskLedger(context.dataDir, { config: () => tools.config().get(), logger: tools.logger });
      try {
        const z = ledger.closeShift();
        ledger.prune();
        tools.logger.info('kioskctl report z', { event: 'ledger.z_by_kioskctl', zNumber: z.zNumber });
        context.stdout(reportText(z));
        return EXIT.ok;
      } catch (error) {
        if (error instanceof LedgerUnavailable) throw new Refused(error.message);
        throw error;
      } finally {
        ledger.close();
        lock.release();
      }
    },
  },
  doctor: {
    args: [],
    readOnly: true,
    run: async (context, tools) => {
      const checks = await runDoctor({ dataDir: context.dataDir, logger: tools.logger, secrets: tools.secrets() });
      context.stdout(formatTable([['CHECK', 'STATUS', 'DETAIL'], ...checks.map(({ name, status, detail }) => [name, status, detail])]));
      const failed = checks.filter((check) => check.status === 'FAIL').map((check) => check.name);
      tools.logger.info('kioskctl doctor', { failed });
      return failed.length > 0 ? EXIT.failed : EXIT.ok;
    },
  },
};

/** `report z` while a kiosk runs on the folder: the kiosk closes the shift, kioskctl prints its Z. */
async function zThroughRunningKiosk(context: KioskctlContext): Promise<number> {
  let answer: ControlAnswer;
  try {
    answer = await askRunningKiosk(context.dataDir, { call: 'closeShift' });
  } catch (error) {
    throw new Refused(`a kiosk runs on this data folder, and ${(error as Error).message}; close the shift from its console (Reports)`);
  }
  if (!answer.ok) throw new Refused(`the running kiosk refused the Z: ${answer.error.message}`);
  context.stdout(reportText(answer.value));
  return EXIT.ok;
}

/** A report command that only reads the data folder's ledger (beside a running kiosk too). */
function ledgerLook(show: (context: KioskctlContext, ledger: Ledger, ...args: string[]) => void): Command {
  return {
    args: [],
    readOnly: true,
    run: (context, tools, ...args) => {
      const settings = tools.config().get();
      let ledger: Ledger | undefined;
      try {
        ledger = readLedger(dataFiles(context.dataDir).ledger, { kioskId: kioskIdOf(settings), shopUuid: settings.api.shopUuid });
        show(context, ledger, ...args);
        return EXIT.ok;
      } catch (error) {
        if (error instanceof ReportRefusal) throw new Refused(error.message);
        throw error;
      } finally {
        ledger?.close();
      }
    },
  };
}

function printUpdateReport(context: KioskctlContext, report: UpdateReport): number {
  context.stdout(formatTable(report.rows));
  return report.ok ? EXIT.ok : EXIT.failed;
}

function printAutostart(context: KioskctlContext, files: AutostartFile[]): void {
  context.stdout(formatTable([['FILE', 'STATUS', 'PATH'], ...files.map((file) => [file.name, file.installed ? 'installed' : 'absent', file.target])]));
}

/** A settings file as dotted key → value; its keys are checked by the caller. */
/** One line from stdin: a trailing newline (echo, a file) is dropped; anything else is refused. */
async function readStdinValue(context: KioskctlContext, what: string, usage: string): Promise<string> {
  if (context.stdin.isTTY) {
    throw new Refused(`${what} is read from stdin, not typed here; pipe it in: read -rs VALUE; printf %s "$VALUE" | npm run kioskctl -- ${usage}`);
  }
  const value = (await context.stdin.read()).replace(/\r?\n$/, '');
  if (value.trim() === '') throw new Refused(`${what} on stdin is empty`);
  if (/[\r\n]/.test(value)) throw new Refused(`${what} on stdin must be a single line`);
  return value;
}

export async function runKioskctl(context: KioskctlContext): Promise<number> {
  const [group = 'help', verb = '', ...rest] = context.args;
  if (group === 'help') {
    context.stdout(USAGE);
    return EXIT.ok;
  }
  // One-word commands (doctor) first; own keys only, so `toString` is no command.
  const name = Object.hasOwn(commands, group) ? group : `${group} ${verb}`;
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  // Words are never echoed back: a mistyped command may carry a secret.
  if (!command) {
    context.stderr(`kioskctl: unknown command\n${USAGE}`);
    return EXIT.refused;
  }
  const args = name === group ? context.args.slice(1) : rest;
  const usage = [name, ...command.args.map((arg) => `<${arg}>`)].join(' ');
  if (command.stdin && !command.ownArgs && args.length > command.args.length) {
    context.stderr(`kioskctl: ${command.stdin} is read from stdin, never from the command line (it would stay in the shell history): printf %s "$VALUE" | npm run kioskctl -- ${usage}\n`);
    return EXIT.refused;
  }
  if (!command.ownArgs && args.length !== command.args.length) {
    context.stderr(`kioskctl: expected ${usage}\n${USAGE}`);
    return EXIT.refused;
  }
  const unwritable = (code: string) => {
    context.stderr(`kioskctl: the data folder ${context.dataDir} cannot be written (${code}); nothing was changed\n`);
    return EXIT.config;
  };
  let logSink: FileLogSink | null = null;
  try {
    // Only a command that writes creates the data folder (owner-only, like the kiosk does).
    // A look writes nothing, not even a log line: the kiosk's own log is not a look's to rotate.
    if (!command.readOnly) ensurePrivateDataDir(context.dataDir);
    if (!command.readOnly) logSink = new FileLogSink({ dir: dataFiles(context.dataDir).logs });
  } catch (error) {
    const code = folderWriteFailure(error);
    if (code === null) throw error;
    return unwritable(code);
  }
  const logger = logSink ? createLogger(logSink).child({ tool: 'kioskctl' }) : silentLogger;
  let store: ConfigStore | undefined;
  let secrets: SecretStore | undefined;
  const tools: Tools = {
    logger,
    config: () => (store ??= openProvisionedConfig(context.dataDir, logger, { readOnly: command.readOnly })),
    secrets: () =>
      (secrets ??= new KeytarSecretStore({
        logger,
        ...kioskKeychain(context.dataDir, context.keychainService),
        onSecretSeen: (value) => logSink?.redactor.addSecret(value),
      })),
  };
  try {
    const input = command.stdin ? [await readStdinValue(context, command.stdin, usage)] : [];
    return await command.run(context, tools, ...args, ...input);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof Refused) {
      context.stderr(`kioskctl: ${error.message}\n`);
      return EXIT.refused;
    }
    if (error instanceof KeychainUnavailableError) {
      context.stderr(`kioskctl: ${error.message}\n`);
      return EXIT.failed;
    }
    const code = folderWriteFailure(error);
    if (code !== null) return unwritable(code);
    throw error;
  }
}
