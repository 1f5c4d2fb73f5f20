import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextMessage as nextOn, startMosquitto, type Mosquitto } from '../test/support/mosquitto.node.ts';
import { FleetHealth } from './fleet/fleet-messages.std.ts';
import { startKioskServices, type KioskServices } from './kiosk-services.node.ts';
import { silentLogger } from './logging/logger.std.ts';
import { KeytarSecretStore, SECRET_NAMES } from './secrets/secret-store.node.ts';

/** The kiosk's own services on a fleet broker: started by the config, with the keychain's password. */
describe('kiosk services on a fleet broker', () => {
  const keychainService = `loyalty-kiosk-test-${crypto.randomUUID()}`;
  const secrets = new KeytarSecretStore({ logger: silentLogger, service: keychainService });
  let broker: Mosquitto;
  let observer: MqttClient;
  let services: KioskServices;

  beforeAll(async () => {
    broker = await startMosquitto({ users: { kiosk: 'kiosk-pw', fleet: 'fleet-pw' }, acl: { kiosk: ['loyalty-kiosk/k1/#'], fleet: ['loyalty-kiosk/#'] } });
    observer = await mqtt.connectAsync(broker.url, { username: 'fleet', password: 'fleet-pw' });
    await secrets.set('mqttPassword', 'kiosk-pw');
    services = await startKioskServices({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-kiosk-')), version: 'test', keychainService });
  });

  afterAll(async () => {
    await services?.close();
    await observer?.endAsync();
    await broker?.stop();
    for (const name of SECRET_NAMES) await secrets.remove(name).catch(() => {});
  });

  const nextMessage = (topic: string, accept: (text: string) => boolean, trigger?: () => unknown) => nextOn(observer, topic, accept, trigger);

  it('connects once fleet.mqtt.url is set and publishes online and its health', async () => {
    const health = nextMessage('loyalty-kiosk/k1/health', () => true);
    const online = nextMessage('loyalty-kiosk/k1/status', (text) => text === 'online', () =>
      services.config.setMany({ 'fleet.mqtt.url': broker.url, 'fleet.mqtt.username': 'kiosk', 'fleet.kioskId': 'k1' }),
    );
    expect(await online).toBe('online');
    const parsed = FleetHealth.parse(JSON.parse(await health));
    expect(parsed).toMatchObject({ version: 'test', mode: 'demo', locksHeld: 0, scanner: { connection: 'keyboard', lastScanAt: null } });
    expect(parsed.freeDiskBytes).toBeGreaterThan(0);
  });

  it('answers doctor with the kioskctl doctor report and diagnostics with the console\'s', async () => {
    const doctor = JSON.parse(
      await nextMessage('loyalty-kiosk/k1/cmd/doctor/result', () => true, () => observer.publishAsync('loyalty-kiosk/k1/cmd/doctor', '{"id":"doc-1"}', { qos: 1 })),
    );
    expect(doctor).toMatchObject({ id: 'doc-1', ok: true, result: { checks: expect.arrayContaining([expect.objectContaining({ name: 'config' })]) } });
    const diagnostics = JSON.parse(
      await nextMessage('loyalty-kiosk/k1/cmd/diagnostics/result', () => true, () => observer.publishAsync('loyalty-kiosk/k1/cmd/diagnostics', '{"id":"diag-1"}', { qos: 1 })),
    );
    expect(diagnostics).toMatchObject({ id: 'diag-1', ok: true, result: { version: 'test', demo: true } });
  });

  it('goes offline when the broker setting is cleared', async () => {
    const offline = nextMessage('loyalty-kiosk/k1/status', (text) => text === 'offline', () => services.config.setMany({ 'fleet.mqtt.url': null }));
    expect(await offline).toBe('offline');
  });
});
