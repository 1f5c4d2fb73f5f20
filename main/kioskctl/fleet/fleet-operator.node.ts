import crypto from 'node:crypto';
import os from 'node:os';
import type { MqttClient } from 'mqtt';
import { settlesWithin } from '../../../base/deadline.std.ts';
import { CommandAnswer, type FleetTarget, fleetWideTopics } from '../../fleet/fleet-messages.std.ts';
import { cut } from '../table.std.ts';
import { isKioskId, KIOSKCTL_LEVEL, type KioskRecord, MAX_KIOSKS, readHealth } from './fleet-roster.std.ts';

export interface OperatorConnection {
  url: string;
  username: string | null;
  password: string | null;
  topicPrefix: string;
}

/**
 * The largest message kioskctl takes (MQTT 5 Maximum Packet Size): the broker drops a bigger one
 * unsent, so no kiosk's message can fill kioskctl's memory. A screenshot's answer fits.
 */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** What a fleet command waited for did not happen by its deadline. */
export class FleetTimeout extends Error {}

/** One deadline for everything a fleet command waits for (`--timeout`). */
export class Deadline {
  readonly #at: number;
  readonly #ms: number;

  constructor(ms: number) {
    this.#ms = ms;
    this.#at = Date.now() + ms;
  }

  remainingMs(): number {
    return Math.max(0, this.#at - Date.now());
  }

  /** What `work` resolves to if it settles by the deadline; else a FleetTimeout: "`what` within N s". */
  async within<T>(work: Promise<T>, what: string): Promise<T> {
    if (!(await settlesWithin(work, this.remainingMs()))) throw new FleetTimeout(`${what} within ${this.#ms / 1000} s (--timeout)`);
    return work;
  }
}

/** The first wait before a broker that could not be reached is tried again; it doubles each time, up to RETRY_MOST_MS. */
const RETRY_FIRST_MS = 500;
const RETRY_MOST_MS = 30_000;

/**
 * An operator's own session: a client id of its own, never a kiosk's, and nothing retained or
 * willed. `timeoutMs` (`--timeout`) starts once the MQTT library is loaded, so a busy machine's
 * module load never eats the wait for the broker. A broker that cannot be reached (down, or
 * restarting) is tried again, with a wait that doubles, until the deadline; one that refuses the
 * operator is not. `signal` gives up at once (Ctrl-C under `fleet watch`). `reconnectMs`: once
 * connected, a lost connection is made again by mqtt.js every so often (and its subscriptions with it).
 */
export async function connectOperator(
  connection: OperatorConnection,
  timeoutMs: number,
  { signal, reconnectMs = 0 }: { signal?: AbortSignal; reconnectMs?: number } = {},
): Promise<{ client: MqttClient; deadline: Deadline }> {
  // Loaded here, not with the module: every kioskctl command and the kiosk itself carry this module.
  const { default: mqtt } = await import('mqtt');
  const deadline = new Deadline(timeoutMs);
  const clientId = `kioskctl-${os.hostname()}-${crypto.randomBytes(4).toString('hex')}`.slice(0, 64);
  for (let waitMs = RETRY_FIRST_MS; ; waitMs = Math.min(waitMs * 2, RETRY_MOST_MS)) {
    const client = mqtt.connect(connection.url, {
      username: connection.username ?? undefined,
      password: connection.password ?? undefined,
      clientId,
      protocolVersion: 5,
      clean: true,
      connectTimeout: Math.max(1, Math.min(10_000, deadline.remainingMs())),
      reconnectPeriod: reconnectMs,
      properties: { maximumPacketSize: MAX_MESSAGE_BYTES },
    });
    const failure = await connected(client, signal);
    if (failure === null) return { client, deadline };
    client.end(true);
    if (signal?.aborted || isRefusal(failure) || deadline.remainingMs() <= waitMs) throw failure;
    await pause(waitMs, signal);
  }
}

/** Null once `client` is connected; else why it is not (its error, its connection closed, or `signal`). */
function connected(client: MqttClient, signal?: AbortSignal): Promise<Error | null> {
  return new Promise((resolve) => {
    const settle = (outcome: Error | null) => {
      client.off('connect', onConnect).off('error', onError).off('close', onClose);
      signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onConnect = () => settle(null);
    const onError = (error: Error) => settle(error);
    const onClose = () => settle(new Error('the broker did not answer in time'));
    const onAbort = () => settle(new Error('stopped'));
    client.once('connect', onConnect).once('error', onError).once('close', onClose);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** CONNACK 4/5 (MQTT 3.1.1), 134/135 (MQTT 5): bad credentials or not authorized. Trying again changes nothing. */
const isRefusal = (error: Error) => [4, 5, 134, 135].includes((error as { code?: unknown }).code as number);

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Without the marker back, the retained messages are taken as all sent once none came for this long. */
const QUIET_MS = 1_000;
/** How long a marker the broker took may take to come back before kioskctl stops waiting for it. */
const MARKER_WAIT_MS = 5_000;

/** Every kiosk the broker holds status or health for; `full`: it held more than kioskctl keeps. */
export interface Fleet {
  records: Map<string, KioskRecord>;
  full: boolean;
}

/**
 * Follows every kiosk's retained status and health under `topicPrefix`; `onChange` is called with
 * the kiosk whose record changed. Resolves once the broker has sent all it kept (catchUp). At most
 * `maxKiosks` are kept, each as what kioskctl shows of it.
 */
export async function followFleet(
  client: MqttClient,
  topicPrefix: string,
  { deadline, onChange = () => {}, maxKiosks = MAX_KIOSKS }: { deadline: Deadline; onChange?: (kioskId: string) => void; maxKiosks?: number },
): Promise<Fleet> {
  const topics = fleetWideTopics(topicPrefix);
  const fleet: Fleet = { records: new Map(), full: false };
  client.on('message', (topic, payload) => {
    const kioskId = topics.kioskOf(topic);
    if (kioskId === null || !isKioskId(kioskId)) return;
    const isStatus = topic === `${topicPrefix}/${kioskId}/status`;
    if (!isStatus && topic !== `${topicPrefix}/${kioskId}/health`) return;
    const known = fleet.records.get(kioskId);
    if (!known && fleet.records.size >= maxKiosks) return void (fleet.full = true);
    const record = known ?? { status: null, health: null };
    if (isStatus) record.status = statusOf(payload);
    else record.health = readHealth(payload);
    // An empty retained payload removes a kiosk the broker no longer holds anything for.
    if (record.status === null && record.health === null) fleet.records.delete(kioskId);
    else fleet.records.set(kioskId, record);
    onChange(kioskId);
  });
  await catchUp(client, topicPrefix, [topics.statuses, topics.healths], deadline, "the broker did not send every kiosk's status and health (it may be dropping messages)");
  return fleet;
}

/**
 * The retained messages on `filters` (a non-empty one each, by topic): what the broker held when
 * asked, read to the end as followFleet reads (the marker, or a second without messages).
 */
export async function retainedOn(client: MqttClient, topicPrefix: string, filters: string[], deadline: Deadline): Promise<Map<string, Buffer>> {
  const held = new Map<string, Buffer>();
  const onMessage = (topic: string, payload: Buffer, packet: { retain: boolean }) => {
    if (packet.retain && payload.byteLength > 0) held.set(topic, payload);
  };
  client.on('message', onMessage);
  try {
    await catchUp(client, topicPrefix, filters, deadline, 'the broker did not send everything it holds (it may be dropping messages)');
  } finally {
    client.off('message', onMessage);
  }
  return held;
}

/**
 * Subscribes to `filters` and resolves once the broker has sent all it kept on them: a marker the
 * operator publishes to itself comes back after them, as the broker sends in order. An operator
 * whose ACL refuses the marker (a read-only one) waits instead until the messages stop coming.
 * A broker that gets neither done by the deadline (one dropping messages) ends it in a FleetTimeout
 * saying `missing`.
 */
async function catchUp(client: MqttClient, topicPrefix: string, filters: string[], deadline: Deadline, missing: string): Promise<void> {
  const marker = `${topicPrefix}/${KIOSKCTL_LEVEL}/${crypto.randomBytes(8).toString('hex')}`;
  let markerSeen!: () => void;
  const caughtUp = new Promise<void>((resolve) => (markerSeen = resolve));
  const onMessage = (topic: string) => topic === marker && markerSeen();
  client.on('message', onMessage);
  try {
    // Delivered at QoS 0 throughout: the broker queues nothing for the session, so the marker cannot
    // overtake. Published at QoS 1, so an MQTT 5 broker says when its ACL refuses it.
    await deadline.within(client.subscribeAsync([...filters, marker], { qos: 0 }), 'the broker did not confirm the subscriptions');
    const markerTaken = await deadline.within(
      client.publishAsync(marker, '', { qos: 1 }).then(
        () => true,
        () => false,
      ),
      "the broker did not acknowledge kioskctl's marker",
    );
    const quiet = quietAfter(client, markerTaken ? MARKER_WAIT_MS : 0);
    try {
      await deadline.within(Promise.race([caughtUp, quiet.reached]), missing);
    } finally {
      quiet.stop();
    }
  } finally {
    client.off('message', onMessage);
  }
}

/** `online` or `offline`; a longer payload is none of them, and is not decoded. */
function statusOf(payload: Uint8Array): KioskRecord['status'] {
  const text = payload.byteLength <= 'offline'.length ? new TextDecoder().decode(payload) : '';
  return text === 'online' || text === 'offline' ? text : null;
}

/** Resolves once no message has come for QUIET_MS, looking from `graceMs` on; `stop()` leaves no timer or listener. */
function quietAfter(client: MqttClient, graceMs: number): { reached: Promise<void>; stop: () => void } {
  let reach!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  let looking = false;
  let timer: ReturnType<typeof setTimeout>;
  const rewind = () => {
    clearTimeout(timer);
    timer = setTimeout(reach, QUIET_MS);
  };
  const onMessage = () => {
    if (looking) rewind();
  };
  timer = setTimeout(() => {
    looking = true;
    rewind();
  }, graceMs);
  client.on('message', onMessage);
  return {
    reached,
    stop: () => {
      clearTimeout(timer);
      client.off('message', onMessage);
    },
  };
}


/** The longest detail of an answer kioskctl keeps: one line of a table. */
const MAX_DETAIL = 160;

/** What kioskctl keeps of a kiosk's answer: how it went, and its reason, error or result cut to one line. */
export interface AnswerSeen {
  outcome: 'ok' | 'failed' | 'waiting';
  replayed: boolean;
  detail: string;
  /** The answer's result, whole (untrusted: the kiosk said it), a failed one's too (a doctor's checks); a command that reads it parses it. */
  result?: unknown;
}

export interface SentCommand {
  id: string;
  /** Each kiosk's last answer so far: a result, or `waiting`. */
  answers: Map<string, AnswerSeen>;
}

/**
 * Publishes one command and gathers the answers (on each kiosk's own result topic) until every
 * kiosk in `expected` has given its result, or the deadline. A broker that does not take the
 * command by then ends it in a FleetTimeout. At most `maxKiosks` answers are kept.
 *
 * A broker lost meanwhile (a restart) loses the answers it did not deliver, and the command to a
 * kiosk that was not connected: on a client that connects again, the command goes again, with its
 * id, to the target once connected, and to each kiosk without a result that says it is back online.
 * A kiosk runs a command id once: one that has run it answers from its memory (`replayed`).
 */
export async function sendCommand(
  client: MqttClient,
  topicPrefix: string,
  {
    target,
    name,
    fields,
    expected,
    deadline,
    maxKiosks = MAX_KIOSKS,
  }: { target: FleetTarget; name: string; fields: Record<string, unknown>; expected: ReadonlySet<string>; deadline: Deadline; maxKiosks?: number },
): Promise<SentCommand> {
  const topics = fleetWideTopics(topicPrefix);
  const id = `kioskctl-${os.hostname()}-${Date.now()}-${crypto.randomBytes(4).toString('hex')}`;
  const answers = new Map<string, AnswerSeen>();
  const done = () => [...expected].every((kioskId) => (answers.get(kioskId)?.outcome ?? 'waiting') !== 'waiting');
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const payload = JSON.stringify({ ...fields, id, operator: operatorOf(client) });
  const sendAgain = (to: FleetTarget) => void client.publishAsync(topics.command(to, name), payload, { qos: 1 }).catch(() => undefined);
  const onMessage = (topic: string, message: Buffer, packet: { retain: boolean }) => {
    const kioskId = topics.kioskOf(topic);
    if (kioskId === null || !isKioskId(kioskId)) return;
    if (topic === `${topicPrefix}/${kioskId}/status`) {
      // Said live (not the broker's retained copy): the kiosk is back and hears commands again.
      if (!packet.retain && expected.has(kioskId) && !hasResult(answers.get(kioskId)) && message.toString() === 'online') sendAgain({ kioskId });
      return;
    }
    if (topic !== `${topicPrefix}/${kioskId}/cmd/${name}/result`) return;
    const answer = readAnswer(message, id);
    const before = answers.get(kioskId);
    if (!answer || (!before && answers.size >= maxKiosks)) return;
    // A result stands: neither a late "waiting" (published before it, delivered after) nor a replay of it undoes it.
    if (!(hasResult(before) && (answer.outcome === 'waiting' || answer.replayed))) answers.set(kioskId, answer);
    if (done()) finish();
  };
  const onReconnect = () => sendAgain(target);
  client.on('message', onMessage);
  try {
    await deadline.within(client.subscribeAsync([topics.results(name), topics.statuses], { qos: 1 }), 'the broker did not confirm the subscription to the answers; nothing was sent');
    await deadline.within(client.publishAsync(topics.command(target, name), payload, { qos: 1 }), `the broker did not acknowledge the command (id ${id}): it may or may not have reached the kiosks`);
    client.on('connect', onReconnect);
    if (expected.size > 0 && !done()) await settlesWithin(finished, deadline.remainingMs());
  } finally {
    client.off('message', onMessage);
    client.off('connect', onReconnect);
  }
  return { id, answers };
}

const hasResult = (answer: AnswerSeen | undefined) => answer !== undefined && answer.outcome !== 'waiting';

/** Who kioskctl says sent a command: its MQTT user, else its own client id. */
function operatorOf(client: MqttClient): string {
  return (client.options.username ?? client.options.clientId ?? 'kioskctl').slice(0, 100);
}

/** The answer to command `id` in a result payload, as kioskctl keeps it; null for another's, or none. */
function readAnswer(payload: Buffer, id: string): AnswerSeen | null {
  let answer: CommandAnswer | undefined;
  try {
    answer = CommandAnswer.safeParse(JSON.parse(payload.toString('utf8'))).data;
  } catch {
    return null;
  }
  if (answer?.id !== id) return null;
  if ('state' in answer) return { outcome: 'waiting', replayed: false, detail: cut(answer.reason, MAX_DETAIL) };
  const replayed = answer.replayed === true;
  if (!answer.ok) return { outcome: 'failed', replayed, detail: cut(answer.error, MAX_DETAIL), ...('result' in answer ? { result: answer.result } : {}) };
  return { outcome: 'ok', replayed, detail: cut(JSON.stringify(answer.result) ?? '', MAX_DETAIL), result: answer.result };
}
