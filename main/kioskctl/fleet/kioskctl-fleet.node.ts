import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { MqttClient } from 'mqtt';
import { FleetBrokerUrl, type KioskConfig, topicLevel } from '../../../common/config-schema.std.ts';
import { FLEET_COMMANDS, type FleetTarget } from '../../fleet/fleet-messages.std.ts';
import { brokerPasswordFor, originOf } from '../../secrets/secret-origin.node.ts';
import type { SecretStore } from '../../secrets/secret-store.node.ts';
import { printable, printableJson } from '../../../base/csv.std.ts';
import { formatTable } from '../table.std.ts';
import { type AnswerSeen, connectOperator, type Deadline, type Fleet, FleetTimeout, followFleet, type OperatorConnection, sendCommand, type SentCommand } from './fleet-operator.node.ts';
import { fleetReportCsv, fleetReportTable, reportRows } from './fleet-report.std.ts';
import { isKioskId, type KioskRecord, rosterCsv, rosterJson, rosterNotes, rosterRows, rosterTable, rowChanges, type RosterRow, someKiosks } from './fleet-roster.std.ts';

/** What a fleet command needs from kioskctl. */
export interface FleetContext {
  args: string[];
  stdin: { isTTY: boolean; read(): Promise<string> };
  stdout: (text: string) => void;
  /** Notes beside the output (what a list leaves out): never mixed into JSON or CSV. */
  stderr: (text: string) => void;
  /** stdout is a terminal: `fleet watch` redraws its table there. */
  stdoutIsTTY: boolean;
  /** The data folder's settings, when it has any (the broker and prefix to use by default). */
  config: () => KioskConfig;
  secrets: () => SecretStore;
  /** Resolves when the operator stops `fleet watch` (Ctrl-C). */
  untilInterrupted: () => Promise<void>;
  env: Record<string, string | undefined>;
}

/** A request kioskctl turns down before anything was sent (exit 2). */
export class FleetRefusal extends Error {}

/** The environment variable an operator's password may come from (CI, a scheduled job). */
export const FLEET_PASSWORD_ENV = 'KIOSKCTL_FLEET_PASSWORD';

const CONNECTION_OPTIONS = {
  broker: { type: 'string' },
  user: { type: 'string' },
  prefix: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  timeout: { type: 'string' },
} as const;

/** How long a fleet command waits for the broker (and for send, the answers) unless --timeout says. */
const DEFAULT_TIMEOUT_S = 30;

/** `--timeout S` in ms: the one deadline for all the command waits for, from connecting on. */
export function timeoutOf(values: { timeout?: string }): number {
  const seconds = Number(values.timeout ?? DEFAULT_TIMEOUT_S);
  if (!(seconds > 0 && seconds <= 86_400)) throw new FleetRefusal('--timeout is a number of seconds, up to 86400');
  return seconds * 1000;
}

export function parse<T extends Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options: { ...CONNECTION_OPTIONS, ...options }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new FleetRefusal((error as Error).message);
  }
}

/**
 * The broker, user and password to use: `--broker` or the data folder's fleet.mqtt.url; the
 * password from stdin (`--password-stdin`), the environment, or the keychain when the user is the
 * kiosk's own and the broker the one its password was stored for. Never from argv.
 */
export async function connectionFor(context: FleetContext, values: { broker?: string; user?: string; prefix?: string; 'password-stdin'?: boolean }): Promise<OperatorConnection> {
  const config = context.config();
  const url = values.broker ?? config.fleet.mqtt.url;
  if (!url) throw new FleetRefusal('no broker: pass --broker mqtts://host:8883, or set fleet.mqtt.url');
  const checked = FleetBrokerUrl.safeParse(url);
  if (!checked.success) throw new FleetRefusal(`--broker: ${checked.error.issues[0]?.message ?? 'not a broker URL'}`);
  const username = values.user ?? config.fleet.mqtt.username;
  return { url, username, password: await passwordFor(context, values, url, username), topicPrefix: values.prefix ?? config.fleet.mqtt.topicPrefix };
}

async function passwordFor(context: FleetContext, values: { 'password-stdin'?: boolean }, url: string, username: string | null): Promise<string | null> {
  if (values['password-stdin']) {
    if (context.stdin.isTTY) throw new FleetRefusal('--password-stdin reads the password from a pipe: read -rs P; printf %s "$P" | kioskctl fleet ...');
    return (await context.stdin.read()).replace(/\r?\n$/, '');
  }
  const fromEnv = context.env[FLEET_PASSWORD_ENV];
  if (fromEnv) return fromEnv;
  const own = context.config().fleet.mqtt;
  // The kiosk's own password, to the broker it was stored for only.
  if (username === null || username !== own.username || originOf(url) !== originOf(own.url)) return null;
  return (await brokerPasswordFor(context.secrets(), originOf(url)).catch(() => ({ password: null }))).password;
}

/**
 * Runs `use` on a session of the operator's own, closed after it without waiting on the broker:
 * all kioskctl sent it has been acknowledged by then, or given up on at the deadline.
 */
export async function withOperator<T>(connection: OperatorConnection, timeoutMs: number, use: (client: MqttClient, deadline: Deadline) => Promise<T>, reconnectMs = 0): Promise<T> {
  let operator: Awaited<ReturnType<typeof connectOperator>>;
  try {
    operator = await connectOperator(connection, timeoutMs, { reconnectMs });
  } catch (error) {
    throw new Error(`${new URL(connection.url).host}: ${(error as Error).message}`);
  }
  const { client, deadline } = operator;
  try {
    return await use(client, deadline);
  } finally {
    await client.endAsync(true);
  }
}

/** Notes on what the list leaves out, on stderr. */
function note(context: FleetContext, fleet: Fleet) {
  for (const line of rosterNotes(fleet)) context.stderr(`kioskctl: ${printable(line)}\n`);
}

/** `fleet ls [--group G] [--json|--csv]`: every kiosk the broker knows, one line each. */
export async function fleetLs(context: FleetContext): Promise<number> {
  const { values } = parse(context.args, { group: { type: 'string' }, json: { type: 'boolean' }, csv: { type: 'boolean' } });
  const timeoutMs = timeoutOf(values);
  const connection = await connectionFor(context, values);
  const fleet = await withOperator(connection, timeoutMs, (client, deadline) => followFleet(client, connection.topicPrefix, { deadline }));
  const now = Date.now();
  const rows = rosterRows(fleet.records, now, values.group);
  if (values.json) context.stdout(rosterJson(rows));
  else if (values.csv) context.stdout(rosterCsv(rows));
  else context.stdout(`${formatTable(rosterTable(rows, now))}${summary(rows)}\n`);
  note(context, fleet);
  return 0;
}

function summary(rows: readonly RosterRow[]): string {
  const count = (test: (row: RosterRow) => boolean) => rows.filter(test).length;
  return `${rows.length} kiosks: ${count((row) => row.status === 'online')} online, ${count((row) => row.status === 'offline')} offline, ${count((row) => row.platform === 'unavailable')} out of service, ${count((row) => row.stale)} stale, ${count((row) => row.settings === 'drifting')} settings drifting`;
}

/**
 * `fleet send <kioskId|--group G|--all> <command> [json] [--save DIR]`: one line per kiosk that
 * should answer; --save also keeps each answer whole in DIR, on the operator's machine. Diagnostics
 * are always kept (in the current folder unless --save names one): a table line cannot hold them.
 */
export async function fleetSend(context: FleetContext): Promise<number> {
  const { values, positionals } = parse(context.args, { group: { type: 'string' }, all: { type: 'boolean' }, save: { type: 'string' }, json: { type: 'boolean' } });
  const command = commandOf(values, positionals);
  const round = await sendToFleet(context, values, command);
  const answers = round.everyone.map((kioskId) => kioskAnswer(kioskId, round.records.get(kioskId), round.sent.answers.get(kioskId)));
  if (values.json) context.stdout(answersJson(answers));
  else context.stdout(formatTable([['KIOSK', 'ANSWER', 'DETAIL'], ...answers.map(({ kioskId, answer, detail }) => [kioskId, answer, detail])]));
  // Beside JSON, never in it.
  const say = values.json ? context.stderr : context.stdout;
  const saveIn = values.save ?? (command.name === 'diagnostics' ? '.' : undefined);
  if (saveIn !== undefined) say(`${printable(saveAnswers(saveIn, command.name, round.sent))}\n`);
  return tally(round, say);
}

/** Each kiosk's answer, whole, as `<kiosk>-<command>-<id>.json` in `dir`: its name made safe, as the broker's topics are untrusted. */
function saveAnswers(dir: string, name: string, sent: SentCommand): string {
  fs.mkdirSync(dir, { recursive: true });
  const answered = [...sent.answers].filter(([, answer]) => answer.outcome !== 'waiting');
  for (const [kioskId, answer] of answered) {
    const file = path.join(dir, `${kioskId.replace(/[^A-Za-z0-9_-]/g, '_')}-${name}-${sent.id.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
    fs.writeFileSync(file, `${JSON.stringify({ kioskId, command: name, id: sent.id, outcome: answer.outcome, detail: answer.detail, result: answer.result ?? null }, null, 2)}\n`);
  }
  return `${answered.length === 1 ? '1 answer' : `${answered.length} answers`} saved in ${path.resolve(dir)}`;
}

interface FleetRound {
  records: ReadonlyMap<string, KioskRecord>;
  sent: SentCommand;
  /** Every kiosk the target names, and every one that answered, sorted. */
  everyone: string[];
}

/** How often a send whose broker was lost (a restart) tries it again while it waits for the answers. */
const SEND_RECONNECT_MS = 1_000;

/** Sends one command to the kiosks `target` names that are online, and gathers their answers until the deadline. */
async function sendToFleet(context: FleetContext, values: { timeout?: string; broker?: string; user?: string; prefix?: string }, { target, name, fields }: { target: FleetTarget; name: string; fields: Record<string, unknown> }): Promise<FleetRound> {
  const timeoutMs = timeoutOf(values);
  const connection = await connectionFor(context, values);
  const { records, sent } = await withOperator(connection, timeoutMs, async (client, deadline) => {
    const { records: known } = await followFleet(client, connection.topicPrefix, { deadline }).catch((error: unknown) => {
      throw error instanceof FleetTimeout ? new FleetTimeout(`${error.message}; the command was not sent`) : error;
    });
    const expected = new Set(targeted(known, target).filter((kioskId) => known.get(kioskId)?.status !== 'offline'));
    return { records: known, sent: await sendCommand(client, connection.topicPrefix, { target, name, fields, expected, deadline }) };
  }, SEND_RECONNECT_MS);
  return { records, sent, everyone: [...new Set([...targeted(records, target), ...sent.answers.keys()])].sort() };
}

/** `fleet send`'s and `fleet report`'s exit codes past the ones every kioskctl command shares (0, 1, 2). */
export const SEND_EXIT = {
  /** Some kiosk the target names did not give its result: offline, silent, still waiting, or none was named at all. */
  unanswered: 3,
  /** Some kiosk answered that its command failed (a doctor whose checks fail, say). */
  failed: 4,
} as const;

/**
 * The round's closing line (who answered, who failed, who waits, who was silent or offline), and
 * its exit code: 0 only when every kiosk the target names answered ok; else 4 when a result
 * failed, else 3.
 */
function tally({ records, sent, everyone }: FleetRound, print: (text: string) => void): number {
  const resultOf = (kioskId: string) => sent.answers.get(kioskId)?.outcome;
  const failed = everyone.filter((kioskId) => resultOf(kioskId) === 'failed');
  const ok = everyone.filter((kioskId) => resultOf(kioskId) === 'ok');
  const waiting = everyone.filter((kioskId) => resultOf(kioskId) === 'waiting');
  const silent = everyone.filter((kioskId) => !sent.answers.has(kioskId) && records.get(kioskId)?.status !== 'offline');
  const offline = everyone.filter((kioskId) => records.get(kioskId)?.status === 'offline' && !sent.answers.has(kioskId));
  const named = (kioskIds: string[]) => (kioskIds.length > 0 ? ` (${someKiosks(kioskIds)})` : '');
  const answered = ok.length + failed.length;
  print(`${printable(`${answered} answered (${ok.length} ok, ${failed.length} failed${named(failed)}), ${waiting.length} still waiting${named(waiting)}, ${silent.length} did not answer${named(silent)}, ${offline.length} offline${named(offline)}; id ${sent.id}`)}\n`);
  if (failed.length > 0) return SEND_EXIT.failed;
  return everyone.length > 0 && ok.length === everyone.length ? 0 : SEND_EXIT.unanswered;
}

/**
 * `fleet report <--group G|--all|kioskId> [--day D] [--csv]`: each kiosk's X (or its Z closed on
 * day D) in one table for head office, with a total line; the kiosks that did not answer are named.
 */
export async function fleetReport(context: FleetContext): Promise<number> {
  const { values, positionals } = parse(context.args, { group: { type: 'string' }, all: { type: 'boolean' }, day: { type: 'string' }, csv: { type: 'boolean' } });
  if (values.day !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(values.day)) throw new FleetRefusal('--day is a date, YYYY-MM-DD');
  const fields = JSON.stringify(values.day === undefined ? {} : { day: values.day });
  const byTag = values.group !== undefined || values.all === true;
  const round = await sendToFleet(context, values, commandOf(values, byTag ? ['report', fields, ...positionals] : [...positionals, 'report', fields]));
  const rows = reportRows(round.everyone, round.sent.answers);
  context.stdout(values.csv ? fleetReportCsv(rows) : formatTable(fleetReportTable(rows)));
  // Beside a CSV, not in it.
  return tally(round, values.csv ? context.stderr : context.stdout);
}

function commandOf(values: { group?: string; all?: boolean }, positionals: string[]): { target: FleetTarget; name: string; fields: Record<string, unknown> } {
  const [first, second, third, ...extra] = positionals;
  const byTag = values.group !== undefined || values.all === true;
  const [kioskId, name, json] = byTag ? [undefined, first, second] : [first, second, third];
  if (!name || extra.length > 0 || (byTag && third !== undefined)) throw new FleetRefusal('expected fleet send <kioskId|--group G|--all> <command> [json]');
  const target = targetOf(values, kioskId);
  if (!(FLEET_COMMANDS as readonly string[]).includes(name)) throw new FleetRefusal(`unknown command; use ${FLEET_COMMANDS.join(', ')}`);
  let fields: unknown = {};
  try {
    fields = json === undefined ? {} : JSON.parse(json);
  } catch {
    throw new FleetRefusal('the command\'s fields must be a JSON object, e.g. \'{"force":true}\'');
  }
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw new FleetRefusal('the command\'s fields must be a JSON object');
  return { target, name, fields: fields as Record<string, unknown> };
}

/** One kiosk, a group (--group G) or the whole fleet (--all), checked: a target is never widened. */
export function targetOf(values: { group?: string; all?: boolean }, kioskId: string | undefined): FleetTarget {
  if (values.group !== undefined && values.all) throw new FleetRefusal('either --group G or --all, not both');
  if (values.all) return 'all';
  if (values.group !== undefined) {
    if (!topicLevel.safeParse(values.group).success) throw new FleetRefusal(`--group "${printable(values.group)}" is no group: one topic level, no / # or +`);
    return { group: values.group };
  }
  // "all", "group/x" or a wildcard as a kiosk id would reach many kiosks, or none.
  if (kioskId === undefined || !isKioskId(kioskId)) throw new FleetRefusal(`"${printable(kioskId ?? '')}" is no kiosk id (one topic level, no / # or +, not all, group or .kioskctl): a group is --group G, the whole fleet --all`);
  return { kioskId };
}

/** The kiosks a target names, as far as the broker knows them. */
function targeted(records: ReadonlyMap<string, KioskRecord>, target: FleetTarget): string[] {
  if (target === 'all') return [...records.keys()];
  if ('group' in target) return [...records].filter(([, record]) => record.health?.groups.includes(target.group)).map(([kioskId]) => kioskId);
  return [target.kioskId];
}

/** One kiosk's part in a round: its answer in a word, the detail on one line, and (for --json) its whole result. */
interface KioskAnswer {
  kioskId: string;
  answer: string;
  detail: string;
  result?: unknown;
}

function kioskAnswer(kioskId: string, record: KioskRecord | undefined, answer: AnswerSeen | undefined): KioskAnswer {
  if (!answer) return record?.status === 'offline' ? { kioskId, answer: 'offline', detail: 'not sent: a kiosk gets commands only while online' } : { kioskId, answer: 'no answer', detail: '' };
  return { kioskId, answer: answer.replayed ? `${answer.outcome} (replayed)` : answer.outcome, detail: answer.detail, ...('result' in answer ? { result: answer.result } : {}) };
}

/** `send --json`: one object per kiosk, its result whole; what a kiosk said is made printable, as everywhere. */
function answersJson(answers: readonly KioskAnswer[]): string {
  return `${printableJson(answers, 2)}\n`;
}

/**
 * `fleet watch [--group G] [--json]`: the table, kept live. On a terminal it is redrawn at each
 * change; elsewhere (a log, a pipe) each change is one line; with --json each is one JSON object a
 * line. Kiosks that go offline, out of service or stale are marked as they change; the clock is
 * looked at every 30 s for health going stale. A lost broker is said at once, the view marked
 * stale, and tried again with a wait that doubles up to 30 s; once back, the view is rebuilt from
 * the retained messages and what changed meanwhile is said.
 */
export async function fleetWatch(context: FleetContext): Promise<number> {
  const { values } = parse(context.args, { group: { type: 'string' }, json: { type: 'boolean' } });
  const timeoutMs = timeoutOf(values);
  const connection = await connectionFor(context, values);
  const view = watchView(context, values);
  const stop = new AbortController();
  void context.untilInterrupted().then(() => stop.abort());
  const clock = setInterval(() => view.look(true), 30_000);
  try {
    for (let first = true; !stop.signal.aborted; first = false) {
      const session = await watchSession(connection, first ? timeoutMs : BROKER_RETRY_MS, stop.signal, view).catch((error: unknown) => {
        if (first && !stop.signal.aborted) throw new Error(`${new URL(connection.url).host}: ${(error as Error).message}`);
        return null;
      });
      if (!session) continue;
      if (first) note(context, session.fleet);
      view.live(session.fleet.records, first);
      await session.lost;
      await session.client.endAsync(true);
      if (!stop.signal.aborted) view.lost();
    }
  } finally {
    clearInterval(clock);
  }
  return 0;
}

/** How long `fleet watch` keeps trying a lost broker in one go (waits doubling up to 30 s) before it starts over. */
const BROKER_RETRY_MS = 3_600_000;

/** One connection of `fleet watch`'s: the fleet as the broker holds it, and a promise that settles when the connection is lost or the watch stopped. */
async function watchSession(connection: OperatorConnection, timeoutMs: number, signal: AbortSignal, view: ReturnType<typeof watchView>) {
  const { client, deadline } = await connectOperator(connection, timeoutMs, { signal });
  try {
    const lost = new Promise<void>((resolve) => {
      client.once('close', () => resolve());
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    // Changes while catching up are not shown: the view takes this connection's records once caught up.
    const caughtUp: { records?: Fleet['records'] } = {};
    const fleet = await followFleet(client, connection.topicPrefix, { deadline, onChange: () => caughtUp.records && view.changed(caughtUp.records) });
    caughtUp.records = fleet.records;
    return { client, fleet, lost: client.connected ? lost : Promise.resolve() };
  } catch (error) {
    client.end(true);
    throw error;
  }
}

/**
 * What `fleet watch` shows: the table (once, then redrawn on a terminal) and one line (or JSON
 * object) per change. `live` takes the records of a connection caught up; `lost` marks them stale.
 */
function watchView(context: FleetContext, { group, json }: { group?: string; json?: boolean }) {
  const now = Date.now;
  const terminal = context.stdoutIsTTY && !json;
  let shown: Map<string, RosterRow> | null = null;
  let records: ReadonlyMap<string, KioskRecord> | null = null;
  /** When the broker was lost; null while connected. */
  let lostAt: number | null = null;
  const stamp = () => new Date(now()).toISOString();
  const say = (lines: Array<{ text: string; json: Record<string, unknown> }>) => {
    if (lines.length > 0) context.stdout(`${lines.map((line) => (json ? printableJson({ at: stamp(), ...line.json }) : printable(`${stamp()} ${line.text}`))).join('\n')}\n`);
  };
  const draw = (rows: RosterRow[]) => {
    const stale = lostAt === null ? '' : `; STALE: the broker was lost at ${new Date(lostAt).toISOString()}`;
    context.stdout(`${terminal ? '\u001b[2J\u001b[H' : ''}${formatTable(rosterTable(rows, now()))}${summary(rows)}${stale}\n`);
  };
  /** `ticked`: the clock's look, which also redraws a terminal's table (its "ago" columns age). */
  const look = (ticked = false) => {
    if (!records) return;
    const rows = rosterRows(records, now(), group);
    const before = shown;
    const changes = before === null ? [] : rows.flatMap((row) => rowChanges(before.get(row.kioskId), row).map((change) => ({ text: `${row.kioskId} ${change}`, json: { kioskId: row.kioskId, change, row } })));
    if (json && before === null) say(rows.map((row) => ({ text: '', json: { kioskId: row.kioskId, change: 'seen', row } })));
    else if (!json && (before === null || (terminal && (ticked || changes.length > 0)))) draw(rows);
    say(changes);
    shown = new Map(rows.map((row) => [row.kioskId, row]));
  };
  return {
    look,
    /** A connection caught up with the broker: its records are the view from now on. */
    live(fleet: ReadonlyMap<string, KioskRecord>, first: boolean) {
      records = fleet;
      if (!first) say([{ text: 'broker back: the view is rebuilt from what the broker holds', json: { broker: 'back' } }]);
      lostAt = null;
      look(!first);
    },
    /** A change on a connection: shown once that connection is the view's. */
    changed(fleet: ReadonlyMap<string, KioskRecord>) {
      if (fleet === records) look();
    },
    lost() {
      lostAt = now();
      say([{ text: 'broker lost: the view is STALE until it is back', json: { broker: 'lost' } }]);
      if (terminal && records) draw(rosterRows(records, now(), group));
    },
  };
}
