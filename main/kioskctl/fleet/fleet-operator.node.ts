import crypto from 'node:crypto';
import os from 'node:os';
import mqtt, { type MqttClient } from 'mqtt';
import { CommandAnswer, fleetWideTopics } from '../../fleet/fleet-messages.std.ts';
import { isKioskId, KIOSKCTL_LEVEL, type KioskRecord, readHealth } from './fleet-roster.std.ts';

export interface OperatorConnection {
  url: string;
  username: string | null;
  password: string | null;
  topicPrefix: string;
}

/** An operator's own session: a client id of its own, never a kiosk's, and nothing retained or willed. */
export async function connectOperator({ url, username, password }: OperatorConnection): Promise<MqttClient> {
  return mqtt.connectAsync(
    url,
    {
      username: username ?? undefined,
      password: password ?? undefined,
      clientId: `kioskctl-${os.hostname()}-${crypto.randomBytes(4).toString('hex')}`.slice(0, 64),
      protocolVersion: 5,
      clean: true,
      connectTimeout: 10_000,
      reconnectPeriod: 0,
    },
    false,
  );
}

/** Without the marker back, the retained messages are taken as all sent once none came for this long. */
const QUIET_MS = 1_000;
/** How long a marker the broker took may take to come back before kioskctl stops waiting for it. */
const MARKER_WAIT_MS = 5_000;

/**
 * Follows every kiosk's retained status and health under `topicPrefix`; `onChange` is called with
 * the kiosk whose record changed. Resolves once the broker has sent all it kept: a marker the
 * operator publishes to itself comes back after them, as the broker sends in order. An operator
 * whose ACL refuses the marker (a read-only one) waits instead until the messages stop coming.
 */
export async function followFleet(client: MqttClient, topicPrefix: string, onChange: (kioskId: string) => void = () => {}) {
  const topics = fleetWideTopics(topicPrefix);
  const records = new Map<string, KioskRecord>();
  const marker = `${topicPrefix}/${KIOSKCTL_LEVEL}/${crypto.randomBytes(8).toString('hex')}`;
  let markerSeen!: () => void;
  const caughtUp = new Promise<void>((resolve) => (markerSeen = resolve));
  let lastMessageAt = Date.now();
  client.on('message', (topic, payload) => {
    lastMessageAt = Date.now();
    if (topic === marker) return markerSeen();
    const kioskId = topics.kioskOf(topic);
    if (kioskId === null || !isKioskId(kioskId)) return;
    const record = records.get(kioskId) ?? { status: null, health: null };
    const text = payload.toString('utf8');
    if (topic === `${topicPrefix}/${kioskId}/status`) record.status = text === 'online' || text === 'offline' ? text : null;
    else if (topic === `${topicPrefix}/${kioskId}/health`) record.health = readHealth(text);
    else return;
    // An empty retained payload removes a kiosk the broker no longer holds anything for.
    if (record.status === null && record.health === null) records.delete(kioskId);
    else records.set(kioskId, record);
    onChange(kioskId);
  });
  // Delivered at QoS 0 throughout: the broker queues nothing for the session, so the marker cannot
  // overtake. Published at QoS 1, so an MQTT 5 broker says when its ACL refuses it.
  await client.subscribeAsync([topics.statuses, topics.healths, marker], { qos: 0 });
  const markerTaken = await client.publishAsync(marker, '', { qos: 1 }).then(
    () => true,
    () => false,
  );
  await Promise.race([caughtUp, quietFor(() => lastMessageAt, markerTaken ? MARKER_WAIT_MS : 0)]);
  return records;
}

/**
 * Resolves once no message has come for QUIET_MS, looking only after `graceMs`. Its timers keep no
 * process alive: once the marker came back, kioskctl exits without waiting for them.
 */
async function quietFor(lastMessageAt: () => number, graceMs: number): Promise<void> {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());
  await sleep(graceMs);
  while (Date.now() - lastMessageAt() < QUIET_MS) await sleep(QUIET_MS / 4);
}

/** Who a command goes to: one kiosk, a group, or the whole fleet. */
export type CommandTarget = { kioskId: string } | { group: string } | 'all';

export interface SentCommand {
  id: string;
  /** Each kiosk's last answer so far: a result, or `waiting`. */
  answers: Map<string, CommandAnswer>;
}

/**
 * Publishes one command and gathers the answers (on each kiosk's own result topic) until every
 * kiosk in `expected` has given its result, or `timeoutMs` passes.
 */
export async function sendCommand(
  client: MqttClient,
  topicPrefix: string,
  { target, name, fields, expected, timeoutMs }: { target: CommandTarget; name: string; fields: Record<string, unknown>; expected: ReadonlySet<string>; timeoutMs: number },
): Promise<SentCommand> {
  const topics = fleetWideTopics(topicPrefix);
  const id = `kioskctl-${os.hostname()}-${Date.now()}-${crypto.randomBytes(4).toString('hex')}`;
  const answers = new Map<string, CommandAnswer>();
  const done = () => [...expected].every((kioskId) => { const answer = answers.get(kioskId); return answer !== undefined && !('state' in answer); });
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const onMessage = (topic: string, payload: Buffer) => {
    const kioskId = topics.kioskOf(topic);
    if (kioskId === null || !isKioskId(kioskId) || topic !== `${topicPrefix}/${kioskId}/cmd/${name}/result`) return;
    const answer = readAnswer(payload);
    if (answer?.id !== id) return;
    // A result stands: a late "waiting" (published before it, delivered after) does not undo it.
    if (!(answers.has(kioskId) && 'state' in answer && !('state' in answers.get(kioskId)!))) answers.set(kioskId, answer);
    if (done()) finish();
  };
  client.on('message', onMessage);
  const timer = setTimeout(finish, timeoutMs);
  try {
    await client.subscribeAsync(topics.results(name), { qos: 1 });
    await client.publishAsync(topics.command(target, name), JSON.stringify({ ...fields, id }), { qos: 1 });
    if (expected.size > 0 && !done()) await finished;
  } finally {
    clearTimeout(timer);
    client.off('message', onMessage);
  }
  return { id, answers };
}

function readAnswer(payload: Buffer): CommandAnswer | null {
  try {
    return CommandAnswer.safeParse(JSON.parse(payload.toString('utf8'))).data ?? null;
  } catch {
    return null;
  }
}
