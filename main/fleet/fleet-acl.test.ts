import fs from 'node:fs';
import { testLedger } from '../../test/support/ledger.node.ts';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nextMessage, startShippedMosquitto, type Mosquitto } from '../../test/support/mosquitto.node.ts';
import { sampleHealth } from '../../test/support/fleet-health-sample.std.ts';
import { until } from '../../test/support/until.std.ts';
import { KioskActivity } from '../activity/kiosk-activity.std.ts';
import { BridgeConnection } from '../bridge/dispatcher.std.ts';
import { ConfigStore } from '../config/config-store.node.ts';
import { recordingLogger } from '../electron/fake-electron.test-support.ts';
import { linesOf } from '../../test/support/factories.std.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { discoveryPublisher } from './discovery-publisher.node.ts';
import { type FleetClient, startFleetClient } from './fleet-client.node.ts';
import { fleetCommands } from '../fleet-commands/fleet-commands.node.ts';
import { discoveryMessages } from './home-assistant.std.ts';

const PREFIX = 'loyalty-kiosk';
const KIOSKS = ['store-1', 'store-2', 'kiosk_07', 'all'] as const;
type KioskUser = (typeof KIOSKS)[number];
const password = (user: string) => `${user}-pw`;

/**
 * The fleet's broker exactly as deploy/mosquitto/ ships it (its mosquitto.conf and acl), with the
 * users docs/running-a-fleet.md names and kiosks whose username is their kiosk id.
 */
describe('the shipped broker configuration (#28 §2, §3, §9)', () => {
  let broker: Mosquitto;
  let operator: MqttClient;
  const clients: FleetClient[] = [];
  const restarts = new Map<string, number>();
  const screen = new BridgeConnection('window');

  const users = ['fleet-operator', 'north-operator', 'homeassistant', 'telegraf-health', 'telegraf-status', ...KIOSKS];
  const login = (username: string, options: mqtt.IClientOptions = {}) =>
    mqtt.connectAsync(broker.url, { username, password: password(username), protocolVersion: 5, reconnectPeriod: 0, ...options });

  /** A kiosk whose broker user is its kiosk id, counting the restarts it is asked for. */
  function kiosk(kioskId: KioskUser, options: { groups?: string[]; discoveryFile?: string; logger?: ReturnType<typeof recordingLogger> } = {}) {
    const activity = new KioskActivity({ locksHeld: () => 0 });
    activity.report(screen, 'attract');
    const config = new ConfigStore({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-acl-')), logger: silentLogger });
    const restart = () => void restarts.set(kioskId, (restarts.get(kioskId) ?? 0) + 1);
    const ledger = testLedger(fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-acl-ledger-')));
    const commands = fleetCommands({ config, logger: silentLogger, doctor: async () => [], diagnostics: async () => ({}), activity, restart, reload: () => {}, ledger });
    const publishDiscovery = options.discoveryFile ? discoveryPublisher(options.discoveryFile, silentLogger) : null;
    const discovery = () => discoveryMessages({ discoveryPrefix: 'homeassistant', topicPrefix: PREFIX, kioskId, version: '1.4.0' });
    const client = startFleetClient({
      url: broker.url,
      username: kioskId,
      password: password(kioskId),
      kioskId,
      topicPrefix: PREFIX,
      groups: options.groups,
      onOnline: publishDiscovery ? (publish) => publishDiscovery(discovery(), publish) : undefined,
      health: async () => sampleHealth(kioskId),
      commands,
      logger: options.logger ?? silentLogger,
      reconnectMs: 100,
    });
    clients.push(client);
    return client;
  }

  /** The answer `kioskId` gives to the command with `id`, once `send` has sent it. */
  const answerOf = async (kioskId: string, name: string, id: string, send: () => Promise<unknown>) =>
    JSON.parse(await nextMessage(operator, `${PREFIX}/${kioskId}/cmd/${name}/result`, (text) => JSON.parse(text).id === id, send)) as { ok: boolean };

  /** The MQTT 5 reason code the broker answers a QoS 1 publish with: 0 when taken, 135 when its ACL denies it. */
  const reasonCode = (client: MqttClient, topic: string, payload: string) =>
    client.publishAsync(topic, payload, { qos: 1 }).then(
      () => 0,
      (error: { code?: number }) => error.code,
    );

  beforeAll(async () => {
    broker = await startShippedMosquitto(Object.fromEntries(users.map((user) => [user, password(user)])));
    operator = await login('fleet-operator');
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    restarts.clear();
  });

  afterAll(async () => {
    await operator?.endAsync();
    await broker?.stop();
  });

  it('starts from the shipped files, warning of nothing but the four fleet-wide read lines', () => {
    // (Run as root, as in a container, Mosquitto also says it should not be: that is the test's doing.)
    const warnings = broker.log().split('\n').filter((line) => /warning/i.test(line) && !/run as root/.test(line));
    expect(warnings).toEqual([
      expect.stringContaining("ACL pattern 'loyalty-kiosk/all/cmd/+' does not contain"),
      expect.stringContaining("ACL pattern 'loyalty-kiosk/group/+/cmd/+' does not contain"),
      expect.stringContaining("ACL pattern 'loyalty-kiosk/all/settings' does not contain"),
      expect.stringContaining("ACL pattern 'loyalty-kiosk/group/+/settings' does not contain"),
    ]);
  });

  it('lets Home Assistant restart one kiosk from its button, and no group, no whole fleet, no other command (#28 §2)', async () => {
    const [one, two] = [kiosk('store-1', { groups: ['region-north'] }), kiosk('store-2', { groups: ['region-north'] })];
    await until(() => one.state().state === 'online' && two.state().state === 'online');
    const homeAssistant = await login('homeassistant');
    try {
      const force = '{"id":"ha-force","force":true}';
      for (const topic of [
        `${PREFIX}/all/cmd/restart`,
        `${PREFIX}/group/region-north/cmd/restart`,
        `${PREFIX}/all/ha/restart`,
        `${PREFIX}/group/ha/restart`,
        `${PREFIX}/store-1/cmd/restart`,
        `${PREFIX}/store-1/cmd/config-set`,
        `${PREFIX}/store-1/ha/config-set`,
      ]) {
        expect({ topic, code: await reasonCode(homeAssistant, topic, force) }).toEqual({ topic, code: 135 });
      }
      // The button, as Home Assistant presses it: on the kiosk's own ha/ topic, with an id of its own.
      const pressed = await answerOf('store-1', 'restart', 'home-assistant-restart-1', () =>
        homeAssistant.publishAsync(`${PREFIX}/store-1/ha/restart`, '{"id":"home-assistant-restart-1"}', { qos: 1 }),
      );
      expect(pressed).toMatchObject({ ok: true, result: { restart: 'scheduled' } });
      await until(() => restarts.get('store-1') === 1);
      // Nothing the broker refused reached a kiosk: a round trip to store-2 comes back with no restart.
      expect(await answerOf('store-2', 'doctor', 'after', () => operator.publishAsync(`${PREFIX}/store-2/cmd/doctor`, '{"id":"after"}', { qos: 1 }))).toMatchObject({ ok: true });
      expect(Object.fromEntries(restarts)).toEqual({ 'store-1': 1 });
    } finally {
      await homeAssistant.endAsync();
    }
  });

  it('lets no kiosk command any kiosk, itself included, whatever its username (#28 §2)', async () => {
    for (const user of ['store-1', 'all'] as const) {
      const compromised = await login(user);
      try {
        for (const topic of [`${PREFIX}/store-2/cmd/restart`, `${PREFIX}/all/cmd/restart`, `${PREFIX}/group/region-north/cmd/restart`, `${PREFIX}/${user}/cmd/restart`, `${PREFIX}/store-2/ha/restart`]) {
          expect({ user, topic, code: await reasonCode(compromised, topic, '{"id":"x","force":true}') }).toEqual({ user, topic, code: 135 });
        }
        // Its own status, health and answers it may write.
        expect(await reasonCode(compromised, `${PREFIX}/${user}/cmd/doctor/result`, '{"id":"x","ok":true,"result":null}')).toBe(0);
      } finally {
        await compromised.endAsync();
      }
    }
  });

  it('keeps a kiosk connected while another kiosk\'s login asks for its client id, again and again (#28 §3)', async () => {
    const logger = recordingLogger();
    const victim = kiosk('store-1', { logger });
    await until(() => victim.state().state === 'online');
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const intruder = await login('store-2', { clientId: `${PREFIX}-store-1` });
      // Connected, under its own name: it can write its own status and nothing of store-1's.
      expect(await reasonCode(intruder, `${PREFIX}/store-1/status`, 'offline')).toBe(135);
      await intruder.endAsync();
    }
    expect(await answerOf('store-1', 'doctor', 'still-there', () => operator.publishAsync(`${PREFIX}/store-1/cmd/doctor`, '{"id":"still-there"}', { qos: 1 }))).toMatchObject({ ok: true });
    expect(linesOf(logger.lines, 'fleet.connection').map(({ fields }) => fields?.state)).toEqual(['online']);
  });

  it('takes every Home Assistant config a kiosk publishes, each naming only the kiosk\'s own topics; its buttons work (#28 §2, §9)', async () => {
    const homeAssistant = await login('homeassistant');
    const configs = new Map<string, Record<string, unknown>>();
    homeAssistant.on('message', (topic, payload) => payload.length > 0 && configs.set(topic, JSON.parse(payload.toString()) as Record<string, unknown>));
    await homeAssistant.subscribeAsync('homeassistant/#', { qos: 1 });
    try {
      for (const kioskId of ['store-2', 'kiosk_07'] as const) {
        kiosk(kioskId, { discoveryFile: path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-acl-discovery-')), 'fleet-discovery.json') });
        const published = discoveryMessages({ discoveryPrefix: 'homeassistant', topicPrefix: PREFIX, kioskId, version: '1.4.0' }).length;
        await until(() => [...configs.keys()].filter((topic) => topic.includes(`/${PREFIX}-${kioskId}/`)).length === published, {
          failure: `${kioskId}: not every config reached Home Assistant`,
        });
        const own = [...configs].filter(([topic]) => topic.includes(`/${PREFIX}-${kioskId}/`));
        for (const [, config] of own) {
          for (const [field, value] of Object.entries(config).filter(([field]) => field.endsWith('_topic'))) expect({ field, value }).toEqual({ field, value: expect.stringMatching(new RegExp(`^${PREFIX}/${kioskId}/(status|health|ha/(restart|reload))$`)) });
        }
        const buttons = own.filter(([topic]) => topic.startsWith('homeassistant/button/')).map(([, config]) => config);
        for (const button of buttons) {
          const id = `home-assistant-${String(button.command_topic).split('/').at(-1)}-${kioskId}`;
          const name = String(button.command_topic).split('/').at(-1)!;
          const press = String(button.command_template).replace(/home-assistant-[a-z]+-\{\{ now\(\)\.timestamp\(\) \}\}/, id);
          expect(await answerOf(kioskId, name, id, () => homeAssistant.publishAsync(String(button.command_topic), press, { qos: 1 }))).toMatchObject({ ok: true });
        }
      }
    } finally {
      await homeAssistant.endAsync();
    }
  });
});
