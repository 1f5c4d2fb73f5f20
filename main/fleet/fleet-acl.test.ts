import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { testLedger } from '../../test/support/ledger.node.ts';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nextMessage, SHIPPED_BROKER_DIR, startShippedMosquitto, type ShippedMosquitto } from '../../test/support/mosquitto.node.ts';
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
const KIOSKS = ['store-1', 'store-2', 'kiosk_07'] as const;
type KioskUser = (typeof KIOSKS)[number];
/** A login the installer gave a password and nothing else, named as the fleet-wide topics are. */
const ROGUE = 'all';
const password = (user: string) => `${user}-pw`;

/**
 * The fleet's broker exactly as deploy/mosquitto/ ships it (its mosquitto.conf and acl), with the
 * users docs/running-a-fleet.md names and kiosks whose username is their kiosk id.
 */
describe('the shipped broker configuration (#28 §2, §3, §9)', () => {
  let broker: ShippedMosquitto;
  let operator: MqttClient;
  const clients: FleetClient[] = [];
  const restarts = new Map<string, number>();
  const screen = new BridgeConnection('window');

  const users = ['fleet-operator', 'north-operator', 'fleet-wallboard', 'homeassistant', 'telegraf-health', 'telegraf-status', ...KIOSKS];
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
    broker = await startShippedMosquitto(Object.fromEntries(users.map((user) => [user, password(user)])), { passwordOnly: { [ROGUE]: password(ROGUE) } });
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

  it('starts from the shipped files, as the mosquitto user, warning of nothing', () => {
    expect(broker.log().split('\n').filter((line) => /warning/i.test(line))).toEqual([]);
  });

  it('gives each kiosk the fleet-wide and group settings and commands through its own block (#35 §5)', async () => {
    await operator.publishAsync(`${PREFIX}/all/settings`, '{"idle.timeoutSeconds":45}', { qos: 1, retain: true });
    await operator.publishAsync(`${PREFIX}/group/region-north/settings`, '{"idle.timeoutSeconds":50}', { qos: 1, retain: true });
    const store = await login('kiosk_07');
    try {
      expect(JSON.parse(await nextMessage(store, `${PREFIX}/all/settings`))).toEqual({ 'idle.timeoutSeconds': 45 });
      expect(JSON.parse(await nextMessage(store, `${PREFIX}/group/region-north/settings`))).toEqual({ 'idle.timeoutSeconds': 50 });
      // …and may set none of them.
      expect(await reasonCode(store, `${PREFIX}/all/settings`, '{}')).toBe(135);
    } finally {
      await store.endAsync();
      for (const layer of ['all', 'group/region-north']) await operator.publishAsync(`${PREFIX}/${layer}/settings`, '', { qos: 1, retain: true });
    }
  });

  it('lets Telegraf and the wallboard read status and health, and publish nothing (#35 §5)', async () => {
    const one = kiosk('store-1');
    await until(() => one.state().state === 'online');
    for (const [user, topic] of [
      ['telegraf-health', `${PREFIX}/store-1/health`],
      ['telegraf-status', `${PREFIX}/store-1/status`],
      ['fleet-wallboard', `${PREFIX}/store-1/health`],
      ['fleet-wallboard', `${PREFIX}/store-1/status`],
    ] as const) {
      const reader = await login(user);
      try {
        expect({ user, topic, read: (await nextMessage(reader, topic)).length > 0 }).toEqual({ user, topic, read: true });
        for (const denied of [`${PREFIX}/all/cmd/restart`, `${PREFIX}/store-1/cmd/restart`, `${PREFIX}/all/settings`, `${PREFIX}/.kioskctl/${user}`, topic]) {
          expect({ user, denied, code: await reasonCode(reader, denied, '{"id":"x"}') }).toEqual({ user, denied, code: 135 });
        }
      } finally {
        await reader.endAsync();
      }
    }
  });

  it('takes a kiosk added while it runs once reloaded, and puts it out once removed (#35 §5)', async () => {
    const canLogIn = () => login('store-9').then(async (client) => (await client.endAsync(), true), () => false);
    expect(await canLogIn()).toBe(false);
    expect(broker.fleetUser(['kiosk', 'store-9'], `${password('store-9')}\n`)).toContain('kiosk store-9: password set, ACL block in place');
    broker.reload();
    await expect.poll(canLogIn).toBe(true);
    const added = await login('store-9');
    await operator.publishAsync(`${PREFIX}/all/settings`, '{"idle.timeoutSeconds":45}', { qos: 1, retain: true });
    try {
      expect(JSON.parse(await nextMessage(added, `${PREFIX}/all/settings`))).toEqual({ 'idle.timeoutSeconds': 45 });
      const closed = new Promise<void>((resolve) => added.once('close', () => resolve()));
      broker.fleetUser(['remove', 'store-9']);
      broker.reload();
      await closed;
      expect(await canLogIn()).toBe(false);
    } finally {
      await added.endAsync(true);
      await operator.publishAsync(`${PREFIX}/all/settings`, '', { qos: 1, retain: true });
    }
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
    for (const user of ['store-1', ROGUE] as const) {
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

describe('deploy/mosquitto/fleet-user, the recipe for the broker\'s users (#35 §5)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-user-'));
  const files = { MOSQUITTO_PASSWD_FILE: path.join(dir, 'passwd'), MOSQUITTO_ACL_FILE: path.join(dir, 'acl') };
  const shippedAcl = fs.readFileSync(path.join(SHIPPED_BROKER_DIR, 'acl'), 'utf8');
  const fleetUser = (args: string[], input = 'a password\n') =>
    spawnSync(path.join(SHIPPED_BROKER_DIR, 'fleet-user'), args, { input, env: { ...process.env, ...files }, encoding: 'utf8' });
  const users = () => fs.readFileSync(files.MOSQUITTO_PASSWD_FILE, 'utf8').split('\n').filter(Boolean).map((line) => line.split(':')[0]);

  beforeAll(() => fs.writeFileSync(files.MOSQUITTO_ACL_FILE, shippedAcl));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('refuses a name that is no kiosk\'s, a tool the ACL does not name, a kiosk as a tool and an empty password, changing nothing', () => {
    for (const [args, input, said] of [
      [['kiosk', 'all'], 'pw\n', /'all' names the fleet-wide or group topics/],
      [['kiosk', 'group'], 'pw\n', /'group' names the fleet-wide or group topics/],
      [['kiosk', '-c'], 'pw\n', /not a name the fleet takes/],
      [['kiosk', 'store/1'], 'pw\n', /not a name the fleet takes/],
      [['kiosk', 'fleet-operator'], 'pw\n', /a tool the ACL names, not a kiosk/],
      [['tool', 'store-1'], 'pw\n', /the ACL names no tool 'store-1'/],
      [['kiosk', 'store-1'], '\n', /no password given for 'store-1'/],
      [['kiosk', 'store-1'], '', /no password given for 'store-1'/],
      [['remove', 'store-1'], '', /no user 'store-1' to remove/],
    ] as const) {
      const run = fleetUser([...args], input);
      expect({ args, status: run.status, said: run.stderr }).toEqual({ args, status: 1, said: expect.stringMatching(said) });
    }
    expect(fs.existsSync(files.MOSQUITTO_PASSWD_FILE)).toBe(false);
    expect(fs.readFileSync(files.MOSQUITTO_ACL_FILE, 'utf8')).toBe(shippedAcl);
  });

  it('adds a kiosk once however often it is run, and removes it to the ACL as shipped; both files the broker user\'s alone', () => {
    for (const args of [['kiosk', 'store-1'], ['tool', 'fleet-operator'], ['kiosk', 'store-2'], ['kiosk', 'store-1']]) expect(fleetUser(args).status).toBe(0);
    expect(users()).toEqual(['store-1', 'fleet-operator', 'store-2']);
    const acl = fs.readFileSync(files.MOSQUITTO_ACL_FILE, 'utf8');
    expect(acl.split('\n').filter((line) => line === 'user store-1')).toHaveLength(1);
    expect(acl.endsWith('user store-2\ntopic read loyalty-kiosk/all/cmd/+\ntopic read loyalty-kiosk/group/+/cmd/+\ntopic read loyalty-kiosk/all/settings\ntopic read loyalty-kiosk/group/+/settings\n')).toBe(true);
    for (const file of Object.values(files)) {
      const { mode, uid } = fs.statSync(file);
      expect({ file, mode: mode & 0o777 }).toEqual({ file, mode: 0o600 });
      if (process.getuid?.() === 0) expect({ file, uid }).toEqual({ file, uid: Number(execFileSync('id', ['-u', 'mosquitto']).toString()) });
    }
    // A kiosk that predates its block: no password keeps the one it has, and gives it the block.
    const hashes = fs.readFileSync(files.MOSQUITTO_PASSWD_FILE, 'utf8');
    fs.writeFileSync(files.MOSQUITTO_ACL_FILE, fs.readFileSync(files.MOSQUITTO_ACL_FILE, 'utf8').replace(/\n# kiosk store-2 \(fleet-user\)\n[^]*$/, ''));
    const kept = fleetUser(['kiosk', 'store-2'], '');
    expect(kept.stdout).toBe('kiosk store-2: password kept, ACL block in place. Reload the broker: systemctl reload mosquitto\n');
    expect(fs.readFileSync(files.MOSQUITTO_PASSWD_FILE, 'utf8')).toBe(hashes);
    expect(fs.readFileSync(files.MOSQUITTO_ACL_FILE, 'utf8')).toBe(acl);
    for (const name of ['store-1', 'store-2']) expect(fleetUser(['remove', name]).status).toBe(0);
    expect(users()).toEqual(['fleet-operator']);
    expect(fs.readFileSync(files.MOSQUITTO_ACL_FILE, 'utf8')).toBe(shippedAcl);
    expect(fs.readdirSync(dir).sort()).toEqual(['acl', 'passwd']);
  });
});
