import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextMessage, startShippedMosquitto, type Mosquitto } from '../test/support/mosquitto.node.ts';
import { kioskEvents, kioskLog } from '../test/support/kiosk-journey.node.ts';
import { until } from '../test/support/until.std.ts';
import { BridgeConnection } from './bridge/dispatcher.std.ts';
import { FleetHealth } from './fleet/fleet-messages.std.ts';
import { SERVICES_CLOSE_MS, startKioskServices, type KioskServices } from './kiosk-services.node.ts';
import { type DoctorCheck, runDoctor } from './diagnostics/doctor.node.ts';
import { silentLogger } from './logging/logger.std.ts';
import { DATA_FILES } from './paths/data-files.node.ts';
import { KeytarSecretStore, SECRET_NAMES } from './secrets/secret-store.node.ts';

/**
 * The kiosk's own services on the shipped broker: its doctor never logs in a second time as the
 * kiosk (which would push the kiosk off); and when the broker goes away while the kiosk answers, a
 * later fleet.* change is still applied, and the services still close, within their bound,
 * freeing the data folder.
 */
describe('kiosk services on the shipped fleet broker (#28 §1, §3)', () => {
  const keychainService = `loyalty-kiosk-test-${crypto.randomUUID()}`;
  const secrets = new KeytarSecretStore({ logger: silentLogger, service: keychainService });
  const screen = new BridgeConnection('window');
  let broker: Mosquitto;
  let operator: MqttClient;
  let services: KioskServices;
  let restarts = 0;
  let closed = false;

  beforeAll(async () => {
    broker = await startShippedMosquitto({ 'store-1': 'store-1-pw', 'store-2': 'store-2-pw', 'fleet-operator': 'operator-pw' });
    operator = await mqtt.connectAsync(broker.url, { username: 'fleet-operator', password: 'operator-pw', reconnectPeriod: 100 });
    await secrets.set('mqttPassword', 'store-1-pw');
    services = await startKioskServices({
      dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-shutdown-')),
      version: 'test',
      keychainService,
      host: { restart: () => void (restarts += 1), quit: () => {} },
    });
    await nextMessage(operator, 'loyalty-kiosk/store-1/status', (text) => text === 'online', () =>
      services.config.setMany({ 'fleet.mqtt.url': broker.url, 'fleet.mqtt.username': 'store-1', 'fleet.kioskId': 'store-1' }),
    );
  });

  afterAll(async () => {
    broker?.thaw();
    if (!closed) await services?.close();
    await operator?.endAsync(true);
    await broker?.stop();
    for (const name of SECRET_NAMES) await secrets.remove(name).catch(() => {});
  });

  it('checks the broker in its doctor by its own link, and kioskctl doctor beside it leaves the link alone (#28 §3)', async () => {
    const fromFleet = await nextMessage(operator, 'loyalty-kiosk/store-1/cmd/doctor/result', (text) => JSON.parse(text).id === 'doc-1', () =>
      operator.publishAsync('loyalty-kiosk/store-1/cmd/doctor', '{"id":"doc-1"}', { qos: 1 }),
    );
    const brokerRow = (checks: DoctorCheck[]) => checks.find(({ name }) => name === 'broker');
    expect(brokerRow(JSON.parse(fromFleet).result.checks)).toEqual({ name: 'broker', status: 'OK', detail: "the kiosk's own link is online" });
    // kioskctl doctor on the same data folder, while the kiosk runs there.
    const beside = await runDoctor({ dataDir: services.dataDir, logger: silentLogger, secrets });
    expect(brokerRow(beside)).toEqual({ name: 'broker', status: 'SKIP', detail: expect.stringContaining(`the kiosk running on this data folder (process ${process.pid}) holds its connection`) });
    expect(kioskEvents(services.dataDir, 'fleet.connection').map((line) => line.state)).toEqual(['online']);
  });

  it('applies a fleet.* change made after the link dropped with an answer in flight', async () => {
    // A restart during a visit waits for idle: its answer goes out only once the visit ends.
    await services.dispatch('reportScreen', { screen: 'visit' }, screen);
    const waiting = await nextMessage(operator, 'loyalty-kiosk/store-1/cmd/restart/result', (text) => JSON.parse(text).id === 'r1', () =>
      operator.publishAsync('loyalty-kiosk/store-1/cmd/restart', '{"id":"r1"}', { qos: 1 }),
    );
    expect(JSON.parse(waiting)).toMatchObject({ state: 'waiting' });
    await broker.down();
    await services.dispatch('reportScreen', { screen: 'attract' }, screen);
    await until(() => kioskEvents(services.dataDir, 'fleet.command').some((line) => line.id === 'r1' && line.ok === true), { timeoutMs: 10_000 });
    expect(restarts).toBe(1);

    services.config.setMany({ 'fleet.groups': ['region-north'] });
    await broker.restart();
    await until(() => operator.connected);
    const health = await nextMessage(operator, 'loyalty-kiosk/store-1/health', (text) => JSON.parse(text).groups.length > 0, undefined, 20_000);
    expect(FleetHealth.parse(JSON.parse(health)).groups).toEqual(['region-north']);
  });

  it('stops at its own bound when a part takes longer to close, and frees the data folder', async () => {
    const otherKeychain = `loyalty-kiosk-test-${crypto.randomUUID()}`;
    const otherSecrets = new KeytarSecretStore({ logger: silentLogger, service: otherKeychain });
    await otherSecrets.set('mqttPassword', 'store-2-pw');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-shutdown-bound-'));
    // A bound shorter than the fleet link's own deadline: the link is still closing when it is up.
    const hurried = await startKioskServices({ dataDir, version: 'test', keychainService: otherKeychain, closeMs: 500 });
    try {
      await nextMessage(operator, 'loyalty-kiosk/store-2/status', (text) => text === 'online', () =>
        hurried.config.setMany({ 'fleet.mqtt.url': broker.url, 'fleet.mqtt.username': 'store-2', 'fleet.kioskId': 'store-2' }),
      );
      broker.freeze();
      await hurried.close();
      expect(fs.existsSync(path.join(dataDir, DATA_FILES.lock))).toBe(false);
      expect(kioskEvents(dataDir, 'services.close_timeout')).toHaveLength(1);
    } finally {
      broker.thaw();
      for (const name of SECRET_NAMES) await otherSecrets.remove(name).catch(() => {});
    }
  });

  it('closes within its bound while the broker answers nothing, and frees the data folder', async () => {
    await until(() => kioskEvents(services.dataDir, 'fleet.connection').filter((line) => line.state === 'online').length >= 2);
    broker.freeze();
    const startedAt = Date.now();
    await services.close();
    closed = true;
    expect(Date.now() - startedAt).toBeLessThan(SERVICES_CLOSE_MS);
    expect(fs.existsSync(path.join(services.dataDir, DATA_FILES.lock))).toBe(false);
    expect(kioskLog(services.dataDir).map((line) => line.event)).toEqual(expect.arrayContaining(['fleet.goodbye_timeout', 'services.stopped']));
  });
});
