import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { settlesWithin } from '../../base/deadline.std.ts';
import { serialQueue } from '../../base/queue.std.ts';
import type { Logger } from '../logging/logger.std.ts';
import { type CommandMemory, commandMemory } from './command-memory.node.ts';
import type { DesiredSettingsLayers } from './desired-settings.node.ts';
import type { CommandLog } from './command-log.std.ts';
import { type CommandAnswer, CommandFailed, CommandRequest, type CommandResult, type FleetHealth, fleetTopics, MAX_SETTINGS_BYTES } from './fleet-messages.std.ts';
import { reconnectWaitMs } from './reconnect-wait.std.ts';

/** What a command may say before its result: that it waits (for idle, or its turn), and why. */
export interface CommandProgress {
  waiting(reason: string): void;
}

/** A command's work: its arguments are the request's fields; what it returns is the answer. */
export type FleetCommandHandler = (request: Record<string, unknown>, progress: CommandProgress) => Promise<unknown>;

/** Publishes one retained message (empty: removes it); rejects when the broker refuses. */
export type RetainedPublish = (topic: string, payload: string) => Promise<void>;

export interface FleetClientOptions {
  url: string;
  username: string | null;
  password: string | null;
  /**
   * Read again before every reconnect: a password changed in the keychain (the console, or
   * `kioskctl secrets set mqtt-password`) is used on the very next try, without a restart.
   */
  readPassword?: () => Promise<string | null>;
  kioskId: string;
  topicPrefix: string;
  /** fleet.groups: commands sent to each group's topic reach this kiosk too. */
  groups?: readonly string[];
  /** Run once the kiosk is online, at each connect: Home Assistant discovery publishes its configs here. */
  onOnline?: (publish: RetainedPublish) => Promise<void>;
  /** Where each command and its outcome is noted, for diagnostics. */
  commandLog?: CommandLog;
  /** The desired settings' layers: told of each connection's layers, given each as the broker sends it, and told when all have come. */
  settings?: Pick<DesiredSettingsLayers, 'connected' | 'take' | 'settled'>;
  health: () => Promise<FleetHealth>;
  commands: Record<string, FleetCommandHandler>;
  logger: Logger;
  /** Default 60 s. */
  healthIntervalMs?: number;
  /** The first reconnect's ceiling (reconnectWaitMs); doubled after each failed attempt up to 60 s. Default 10 s. */
  reconnectMs?: number;
  /** In [0, 1): where in its window each reconnect falls (default Math.random). */
  random?: () => number;
  /** The commands acted on, kept across restarts; default: in memory only. */
  memory?: CommandMemory;
  /** Epoch ms, for a command's `expiresAt`. */
  now?: () => number;
  /** How long close waits for the broker to take its goodbye before it cuts the link (default CLOSE_DEADLINE_MS). */
  closeMs?: number;
}

/**
 * What a close waits at most for the broker: for the answers in flight, the `offline` status and a
 * clean DISCONNECT. A broker gone quiet (its link dropped, or a peer that stops answering) gets no
 * longer: the link is cut, and its Last Will says `offline` instead.
 */
export const CLOSE_DEADLINE_MS = 5_000;

/** Commands wait their turn, one running at a time; past this many waiting, a command is answered `busy`. */
export const MAX_WAITING_COMMANDS = 4;

/**
 * `refused`: the broker turned the credentials down (or the ACL the subscription); `lastError` says
 * how. `password_needed`: the kiosk holds back until the moved broker's password is entered.
 */
export type FleetConnectionState = 'connecting' | 'online' | 'offline' | 'refused' | 'password_needed' | 'closed';

export interface FleetClient {
  /** `lastHealthAt`: when health last went out (epoch ms), null before the first. */
  state(): { state: FleetConnectionState; lastError: string | null; lastHealthAt: number | null };
  /** Publishes health now (a change); while offline only the latest is kept, for the next connect. */
  publishHealth(): Promise<void>;
  /**
   * Publishes `offline` (retained) and disconnects cleanly; resolves within `closeMs` whatever the
   * broker does (past it the link is cut).
   */
  close(): Promise<void>;
}

/**
 * The kiosk's line to its fleet broker: a retained `online` status with a Last Will of `offline`,
 * retained health on a timer and on change, and commands (its own, its groups', the whole
 * fleet's) answered on its own result topics with their correlation id.
 *
 * Health goes out at QoS 0 and only while connected (`queueQoSZero: false`): mqtt.js would otherwise
 * queue every publish made offline. The latest health is published again on each connect, so the
 * backlog is at most one message by construction, however long the broker is away.
 *
 * Reconnects are the kiosk's own (mqtt.js's fixed-period timer is off): each waits a random time
 * in a window that doubles (full jitter), and reads the password first.
 */
export function startFleetClient(options: FleetClientOptions): FleetClient {
  const topics = fleetTopics(options.topicPrefix, options.kioskId, options.groups);
  const logger = options.logger.child({ part: 'fleet' });
  let state: FleetConnectionState = 'connecting';
  let lastError: string | null = null;
  let lastHealthAt: number | null = null;
  let closing = false;

  const client: MqttClient = mqtt.connect(options.url, connectOptions(options));
  const reconnects = jitteredReconnects(client, options);
  const answer = commandTaker({
    commands: options.commands,
    memory: options.memory ?? commandMemory(null, logger),
    now: options.now ?? Date.now,
    publish: resultPublisher(client, topics, logger, options.commandLog, options.now ?? Date.now),
  });

  const setState = (next: FleetConnectionState, error: string | null = lastError) => {
    lastError = error;
    if (next === state) return;
    state = next;
    logger.info('fleet broker connection', { event: 'fleet.connection', state, ...(error ? { error } : {}) });
  };

  const publishHealth = async () => {
    if (!client.connected) return;
    try {
      const health = await options.health();
      // Retained: a dashboard that subscribes sees every kiosk at once; `at` tells how old it is.
      await client.publishAsync(topics.health, JSON.stringify(health), { qos: 0, retain: true });
      lastHealthAt = Date.now();
    } catch (error) {
      logger.warn('fleet health not published', { error: String(error) });
    }
  };

  client.on('connect', () => {
    // Online once commands can reach the kiosk: a command sent the moment it says so is heard.
    void subscribeConnection(client, topics, options.settings, logger).then((refusal) => (refusal === null ? announceOnline() : client.connected && setState('refused', refusal)));
  });

  function announceOnline() {
    setState('online', null);
    // MQTT 5 answers a publish the ACL denies with a reason code (3.1.1 would drop it silently).
    client.publishAsync(topics.status, 'online', { qos: 1, retain: true }).catch((error: unknown) => {
      if (client.connected) setState('refused', `the broker refused the kiosk's status (check its ACL): ${String(error)}`);
    });
    void publishHealth();
    const publishRetained: RetainedPublish = async (topic, payload) => void (await client.publishAsync(topic, payload, { qos: 1, retain: true }));
    options.onOnline?.(publishRetained).catch((error: unknown) => logger.warn('fleet announcements not published', { error: String(error) }));
  }

  client.on('reconnect', () => {
    if (state !== 'refused') setState('connecting');
  });
  client.on('close', () => {
    if (state === 'online') setState('offline');
  });
  client.on('error', (error) => {
    const code = (error as { code?: number }).code;
    // CONNACK 4/5 (v3.1.1) and 134/135 (v5): bad credentials or not authorized.
    if (code === 4 || code === 5 || code === 134 || code === 135) setState('refused', `the broker refused the kiosk: ${error.message}`);
    else setState(state === 'online' ? 'offline' : state, error.message);
  });
  client.on('message', (topic, payload, packet) => {
    if (topics.settings.includes(topic)) return options.settings?.take(topic, payload);
    const name = topics.commandOf(topic);
    // A closing kiosk takes nothing new on: its answer could not go out.
    if (name === null || closing) return;
    // A broker that ignores retain handling still marks what it replays from its store.
    if (packet.retain) logger.warn('a retained fleet command was ignored: clear it on the broker', { command: name });
    else void answer(name, payload, topic);
  });

  const timer = setInterval(() => void publishHealth(), options.healthIntervalMs ?? 60_000);
  timer.unref();

  return {
    state: () => ({ state, lastError, lastHealthAt }),
    publishHealth,
    async close() {
      closing = true;
      reconnects.stop();
      clearInterval(timer);
      const closeMs = options.closeMs ?? CLOSE_DEADLINE_MS;
      if (!(await settlesWithin(sayGoodbye(client, topics.status), closeMs))) {
        logger.warn('the fleet broker did not take the goodbye in time: the link is cut', { event: 'fleet.goodbye_timeout', afterMs: closeMs });
        // mqtt.js's own forced end does nothing once a clean one waits: the socket itself goes.
        client.stream.destroy();
      }
      setState('closed');
    },
  };
}

/**
 * `offline` (retained) while connected, then a clean DISCONNECT once the answers in flight are
 * acknowledged (so the broker drops the Last Will). Either may wait on the broker for ever.
 */
async function sayGoodbye(client: MqttClient, statusTopic: string): Promise<void> {
  if (client.connected) await client.publishAsync(statusTopic, 'offline', { qos: 1, retain: true }).catch(() => undefined);
  await client.endAsync();
}

/**
 * Reconnects after each lost or failed connection, one at a time: after a wait drawn in a window
 * that doubles with each failed try (reconnectWaitMs), with the password as stored now.
 */
function jitteredReconnects(client: MqttClient, options: Pick<FleetClientOptions, 'reconnectMs' | 'random' | 'readPassword'>) {
  const baseMs = options.reconnectMs ?? 10_000;
  const random = options.random ?? Math.random;
  let failedAttempts = 0;
  let retry: NodeJS.Timeout | undefined;
  let stopped = false;
  const rereadPassword = async () => {
    const password = await options.readPassword?.().catch(() => undefined);
    if (password !== undefined) client.options.password = password ?? undefined;
  };
  client.on('connect', () => (failedAttempts = 0));
  client.on('close', () => {
    if (stopped || retry) return;
    // rereadPassword never rejects: a keychain that fails leaves the password as it was.
    const reconnect = () => {
      retry = undefined;
      if (!stopped) client.reconnect();
    };
    retry = setTimeout(() => void rereadPassword().then(reconnect), reconnectWaitMs(failedAttempts++, baseMs, random));
  });
  return {
    stop() {
      stopped = true;
      clearTimeout(retry);
    },
  };
}

/**
 * Subscribes to the kiosk's commands (its own, its groups', the fleet's): why the broker refused,
 * or null. Retain handling 2: a retained command (left on the broker by mistake or by malice) is
 * never delivered. (Mosquitto grants a subscription its ACL does not let through, and delivers
 * nothing on it: a group the ACL leaves out shows as kiosks that do not answer.)
 */
async function subscribeCommands(client: MqttClient, commandTopics: string[]): Promise<string | null> {
  try {
    const granted = await client.subscribeAsync(commandTopics, { qos: 1, rh: 2 });
    return granted.some(({ qos }) => qos >= 128) ? 'the broker refused the command subscription (check its ACL)' : null;
  } catch (error) {
    return `the broker refused the command subscription: ${String(error)}`;
  }
}

/**
 * Subscribes a new connection, the settings' layers first: the broker sends what it retains for them
 * before it answers the command subscription sent after, so by that answer every layer there is has
 * come, and the settings are told so. Resolves as subscribeCommands does.
 */
async function subscribeConnection(client: MqttClient, topics: ReturnType<typeof fleetTopics>, settings: FleetClientOptions['settings'], logger: Logger): Promise<string | null> {
  const followed = settings ? followSettings(client, topics.settings, settings, logger) : Promise.resolve(false);
  const refusal = await subscribeCommands(client, topics.commands);
  // Layers never subscribed are not known to be empty: nothing is applied, nothing given back.
  if ((await followed) && client.connected) settings?.settled();
  return refusal;
}

/** A new connection's desired settings: retained, so each layer comes again at every connect, and a kiosk that was away converges here. Whether they were subscribed. */
function followSettings(client: MqttClient, layers: readonly string[], settings: NonNullable<FleetClientOptions['settings']>, logger: Logger): Promise<boolean> {
  settings.connected(layers);
  return client.subscribeAsync([...layers], { qos: 1 }).then(
    () => true,
    (error: unknown) => (logger.warn('the desired settings were not subscribed', { error: String(error) }), false),
  );
}

/**
 * The largest packet the broker may send this kiosk. Commands and settings layers are far smaller
 * (a layer over MAX_SETTINGS_BYTES still arrives, to be refused and reported); anything larger is
 * dropped by the broker, never read into the kiosk's memory whole.
 */
export const MAX_INCOMING_PACKET_BYTES = 16 * MAX_SETTINGS_BYTES;

/** How mqtt.js connects: the Last Will, no offline queue for QoS 0, no reconnects of its own, a packet size limit. */
function connectOptions(options: FleetClientOptions): IClientOptions {
  return {
    username: options.username ?? undefined,
    password: options.password ?? undefined,
    clientId: `${options.topicPrefix}-${options.kioskId}`,
    protocolVersion: 5,
    clean: true,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    queueQoSZero: false,
    will: { topic: fleetTopics(options.topicPrefix, options.kioskId).status, payload: Buffer.from('offline'), qos: 1, retain: true },
    properties: { maximumPacketSize: MAX_INCOMING_PACKET_BYTES },
  };
}

/** Where a command came from: the topic, and the operator it names (null: none named, or unreadable). */
interface CommandSource {
  via: string;
  by: string | null;
}

/**
 * Publishes a command's answers on its result topic, a result naming the operator who sent it, and
 * notes each outcome and who sent it (never its payload).
 */
function resultPublisher(client: MqttClient, topics: ReturnType<typeof fleetTopics>, logger: Logger, log: CommandLog | undefined, now: () => number) {
  return async (name: string, answer: CommandAnswer, { via, by }: CommandSource) => {
    const outcome = 'state' in answer ? { waiting: answer.reason } : { ok: answer.ok, ...(answer.replayed ? { replayed: true as const } : {}) };
    logger.info('fleet command', { event: 'fleet.command', command: name, id: answer.id, via, by, ...outcome });
    log?.add({ at: now(), command: name, id: answer.id, via, by, outcome: outcomeOf(answer) });
    const published = by !== null && !('state' in answer) ? { ...answer, by } : answer;
    await client.publishAsync(topics.result(name), JSON.stringify(published), { qos: 1 }).catch((error: unknown) => {
      logger.warn('fleet command result not published', { command: name, error: String(error) });
    });
  };
}

/** A command's outcome in a few words: `ok`, `waiting: …`, or its error; `(replayed)` when answered from memory. */
function outcomeOf(answer: CommandAnswer): string {
  const words = 'state' in answer ? `waiting: ${answer.reason}` : answer.ok ? 'ok' : answer.error;
  return 'replayed' in answer && answer.replayed ? `${words} (replayed)` : words;
}

/**
 * Takes the broker's commands: each is checked at once (malformed, expired, seen before, too many
 * waiting) and answered there, or run in turn, one at a time, and answered when done. One that
 * must wait its turn says so at once.
 */
function commandTaker({
  commands,
  memory,
  now,
  publish,
}: {
  commands: Record<string, FleetCommandHandler>;
  memory: CommandMemory;
  now: () => number;
  publish: (name: string, answer: CommandAnswer, source: CommandSource) => Promise<void>;
}) {
  const turns = serialQueue();
  /** Commands taken and not yet answered: the one running and those waiting their turn. */
  let taken = 0;
  /** Their `name\nid` keys. */
  const inFlight = new Set<string>();
  return async (name: string, payload: Buffer, via: string) => {
    const request = readRequest(commands, name, payload, now());
    if (!request.ok) return publish(name, request.result, { via, by: null });
    const { id } = request;
    const source = { via, by: request.by };
    const key = `${name}\n${id}`;
    // Sent again while it runs (a sender that lost its broker meanwhile): it runs once, and says it is on its way.
    if (inFlight.has(key)) return publish(name, { id, state: 'waiting', reason: 'already received: it runs once, its result follows' }, source);
    const recalled = memory.recall(name, id);
    if (recalled) return publish(name, recalled, source);
    if (taken > MAX_WAITING_COMMANDS) return publish(name, { id, ok: false, error: 'busy: too many commands waiting; send again later' }, source);
    memory.started(name, id);
    inFlight.add(key);
    if (taken > 0) void publish(name, { id, state: 'waiting', reason: 'behind another command' }, source);
    taken += 1;
    const progress: CommandProgress = { waiting: (reason) => void publish(name, { id, state: 'waiting', reason }, source) };
    await turns.run(async () => {
      // It may have waited its turn past its expiry.
      const result = isExpired(request.fields, now()) ? expired(id) : await runCommand(request.handler, id, request.fields, progress);
      taken -= 1;
      memory.finished(name, id, result);
      inFlight.delete(key);
      await publish(name, result, source);
    });
  };
}

const isExpired = ({ expiresAt }: { expiresAt?: number }, now: number) => expiresAt !== undefined && expiresAt <= now;
const expired = (id: string): CommandResult => ({ id, ok: false, error: 'expired' });

type ReadRequest =
  | { ok: true; id: string; by: string | null; handler: FleetCommandHandler; fields: Record<string, unknown> & { expiresAt?: number } }
  | { ok: false; result: CommandResult };

/** A payload that is no JSON object with an id, names no command or has expired gets its error answer here. */
function readRequest(commands: Record<string, FleetCommandHandler>, name: string, payload: Buffer, now: number): ReadRequest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload.toString('utf8'));
  } catch {
    return { ok: false, result: { id: null, ok: false, error: 'the payload is no JSON' } };
  }
  const request = CommandRequest.safeParse(parsed);
  if (!request.success) {
    const id = CommandRequest.shape.id.safeParse((parsed as { id?: unknown } | null)?.id);
    const error = id.success ? '"expiresAt" must be epoch milliseconds or an ISO 8601 time with its offset' : 'the payload needs a JSON object with an "id" string';
    return { ok: false, result: { id: id.success ? id.data : null, ok: false, error } };
  }
  const { id } = request.data;
  if (isExpired(request.data, now)) return { ok: false, result: expired(id) };
  const handler = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!handler) return { ok: false, result: { id, ok: false, error: `unknown command; use ${Object.keys(commands).join(', ')}` } };
  // The operator names the sender; it is no argument of the command's.
  const { operator, ...fields } = request.data;
  return { ok: true, id, by: operator ?? null, handler, fields };
}

/** One command, never thrown: a failing command is an error answer. */
async function runCommand(handler: FleetCommandHandler, id: string, fields: Record<string, unknown>, progress: CommandProgress): Promise<CommandResult> {
  try {
    return { id, ok: true, result: await handler(fields, progress) };
  } catch (error) {
    if (error instanceof CommandFailed) return { id, ok: false, error: error.message, result: error.result };
    return { id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
