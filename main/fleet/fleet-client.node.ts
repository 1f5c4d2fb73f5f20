import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { Logger } from '../logging/logger.std.ts';
import { CommandRequest, type CommandResult, type FleetHealth, fleetTopics } from './fleet-messages.std.ts';

/** A command's work: its arguments are the request's fields; what it returns is the answer. */
export type FleetCommandHandler = (request: Record<string, unknown>) => Promise<unknown>;

export interface FleetClientOptions {
  url: string;
  username: string | null;
  password: string | null;
  /**
   * Read again after a refused connect, for the next attempt: a password fixed in the keychain
   * (`kioskctl secrets set mqtt-password`) is used without restarting the kiosk.
   */
  readPassword?: () => Promise<string | null>;
  kioskId: string;
  topicPrefix: string;
  health: () => Promise<FleetHealth>;
  commands: Record<string, FleetCommandHandler>;
  logger: Logger;
  /** Default 60 s. */
  healthIntervalMs?: number;
  /** First wait before reconnecting; doubled after each failed attempt up to 60 s. Default 1 s. */
  reconnectMs?: number;
}

/** `refused`: the broker turned the credentials down (or the ACL the subscription); `lastError` says how. */
export type FleetConnectionState = 'connecting' | 'online' | 'offline' | 'refused' | 'closed';

export interface FleetClient {
  /** `lastHealthAt`: when health last went out (epoch ms), null before the first. */
  state(): { state: FleetConnectionState; lastError: string | null; lastHealthAt: number | null };
  /** Publishes health now (a change); while offline only the latest is kept, for the next connect. */
  publishHealth(): Promise<void>;
  /** Publishes `offline` (retained) and disconnects cleanly. */
  close(): Promise<void>;
}

const MAX_RECONNECT_MS = 60_000;

/**
 * The kiosk's line to its fleet broker: a retained `online` status with a Last Will of `offline`,
 * health on a timer and on change, and commands answered with their correlation id.
 *
 * Health goes out at QoS 0 and only while connected (`queueQoSZero: false`): mqtt.js would otherwise
 * queue every publish made offline. The latest health is published again on each connect, so the
 * backlog is at most one message by construction, however long the broker is away.
 */
export function startFleetClient(options: FleetClientOptions): FleetClient {
  const topics = fleetTopics(options.topicPrefix, options.kioskId);
  const logger = options.logger.child({ part: 'fleet' });
  const baseReconnectMs = options.reconnectMs ?? 1_000;
  let state: FleetConnectionState = 'connecting';
  let lastError: string | null = null;
  let lastHealthAt: number | null = null;

  const client: MqttClient = mqtt.connect(options.url, connectOptions(options, topics.status, baseReconnectMs));

  const setState = (next: FleetConnectionState, error: string | null = lastError) => {
    lastError = error;
    if (next === state) return;
    state = next;
    logger.info('fleet broker connection', { state, ...(error ? { error } : {}) });
  };

  const publishHealth = async () => {
    if (!client.connected) return;
    try {
      const health = await options.health();
      await client.publishAsync(topics.health, JSON.stringify(health), { qos: 0, retain: false });
      lastHealthAt = Date.now();
    } catch (error) {
      logger.warn('fleet health not published', { error: String(error) });
    }
  };

  client.on('connect', () => {
    client.options.reconnectPeriod = baseReconnectMs;
    setState('online', null);
    // MQTT 5 answers a publish the ACL denies with a reason code (3.1.1 would drop it silently).
    client.publishAsync(topics.status, 'online', { qos: 1, retain: true }).catch((error: unknown) => {
      if (client.connected) setState('refused', `the broker refused the kiosk's status (check its ACL): ${String(error)}`);
    });
    client.subscribeAsync(topics.commands, { qos: 1 }).then(
      (granted) => granted.some(({ qos }) => qos >= 128) && setState('refused', 'the broker refused the command subscription (check its ACL)'),
      (error: unknown) => setState('refused', `the broker refused the command subscription: ${String(error)}`),
    );
    void publishHealth();
  });
  // Backoff: each failed attempt doubles the wait mqtt.js takes before the next one.
  client.on('reconnect', () => {
    client.options.reconnectPeriod = Math.min(MAX_RECONNECT_MS, (client.options.reconnectPeriod ?? baseReconnectMs) * 2);
    if (state !== 'refused') setState('connecting');
  });
  client.on('close', () => {
    if (state === 'online') setState('offline');
  });
  client.on('error', (error) => {
    const code = (error as { code?: number }).code;
    // CONNACK 4/5 (v3.1.1) and 134/135 (v5): bad credentials or not authorized.
    if (code === 4 || code === 5 || code === 134 || code === 135) {
      setState('refused', `the broker refused the kiosk: ${error.message}`);
      void rereadPassword();
    }
    else setState(state === 'online' ? 'offline' : state, error.message);
  });
  client.on('message', (topic, payload) => {
    const name = topics.commandOf(topic);
    if (name !== null) void answer(name, payload);
  });

  async function rereadPassword() {
    const password = await options.readPassword?.().catch(() => undefined);
    if (password !== undefined) client.options.password = password ?? undefined;
  }

  async function answer(name: string, payload: Buffer) {
    const result = await runCommand(options.commands, name, payload);
    logger.info('fleet command', { command: name, id: result.id, ok: result.ok });
    await client.publishAsync(topics.result(name), JSON.stringify(result), { qos: 1 }).catch((error: unknown) => {
      logger.warn('fleet command result not published', { command: name, error: String(error) });
    });
  }

  const timer = setInterval(() => void publishHealth(), options.healthIntervalMs ?? 60_000);
  timer.unref();

  return {
    state: () => ({ state, lastError, lastHealthAt }),
    publishHealth,
    async close() {
      clearInterval(timer);
      if (client.connected) await client.publishAsync(topics.status, 'offline', { qos: 1, retain: true }).catch(() => undefined);
      await client.endAsync();
      setState('closed');
    },
  };
}

/** How mqtt.js connects: the Last Will, no offline queue for QoS 0, reconnects that start at `reconnectMs`. */
function connectOptions(options: FleetClientOptions, statusTopic: string, reconnectMs: number): IClientOptions {
  return {
    username: options.username ?? undefined,
    password: options.password ?? undefined,
    clientId: `${options.topicPrefix}-${options.kioskId}`,
    protocolVersion: 5,
    clean: true,
    reconnectPeriod: reconnectMs,
    connectTimeout: 10_000,
    queueQoSZero: false,
    // A refused password may be fixed in the keychain meanwhile (readPassword); the backoff keeps the tries rare.
    reconnectOnConnackError: true,
    will: { topic: statusTopic, payload: Buffer.from('offline'), qos: 1, retain: true },
  };
}

/** One command, never thrown: a payload that is no JSON object with an id, or a failing command, is an error answer. */
async function runCommand(commands: Record<string, FleetCommandHandler>, name: string, payload: Buffer): Promise<CommandResult> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload.toString('utf8'));
  } catch {
    return { id: null, ok: false, error: 'the payload is no JSON' };
  }
  const request = CommandRequest.safeParse(parsed);
  if (!request.success) return { id: null, ok: false, error: 'the payload needs a JSON object with an "id" string' };
  const { id } = request.data;
  const handler = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!handler) return { id, ok: false, error: `unknown command; use ${Object.keys(commands).join(', ')}` };
  try {
    return { id, ok: true, result: await handler(request.data) };
  } catch (error) {
    return { id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
