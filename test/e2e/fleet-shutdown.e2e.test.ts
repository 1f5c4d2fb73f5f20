import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../main/config/config-store.node.ts';
import { silentLogger } from '../../main/logging/logger.std.ts';
import { DATA_FILES } from '../../main/paths/data-files.node.ts';
import { KeytarSecretStore, SECRET_NAMES } from '../../main/secrets/secret-store.node.ts';
import { startBrowserHostProcess, type BrowserHostProcess } from '../support/browser-host-process.node.ts';
import { kioskEvents } from '../support/kiosk-journey.node.ts';
import { nextMessage, startShippedMosquitto, type Mosquitto } from '../support/mosquitto.node.ts';

/**
 * The browser host as systemd runs it, on the shipped broker, when the broker stops answering
 * (SIGSTOP): a SIGTERM still ends the process within a few seconds, with the data folder free.
 */
describe('a kiosk process whose fleet broker answers nothing (#28 §1)', () => {
  const keychainService = `loyalty-kiosk-test-${crypto.randomUUID()}`;
  const secrets = new KeytarSecretStore({ logger: silentLogger, service: keychainService });
  let broker: Mosquitto;
  let operator: MqttClient;
  let host: BrowserHostProcess;

  beforeAll(async () => {
    broker = await startShippedMosquitto({ 'store-1': 'store-1-pw', 'fleet-operator': 'operator-pw' });
    operator = await mqtt.connectAsync(broker.url, { username: 'fleet-operator', password: 'operator-pw' });
    await secrets.set('mqttPassword', 'store-1-pw');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-fleet-shutdown-'));
    new ConfigStore({ dataDir, logger: silentLogger }).setMany({ 'fleet.mqtt.url': broker.url, 'fleet.mqtt.username': 'store-1', 'fleet.kioskId': 'store-1' });
    // The whole start of a kiosk process may come first: on a loaded machine that is more than nextMessage's usual wait.
    const online = nextMessage(operator, 'loyalty-kiosk/store-1/status', (text) => text === 'online', undefined, 60_000);
    host = await startBrowserHostProcess({ dataDir, env: { KIOSK_KEYCHAIN_SERVICE: keychainService } });
    await online;
  });

  afterAll(async () => {
    broker?.thaw();
    await host?.stop('SIGKILL');
    await operator?.endAsync(true);
    await broker?.stop();
    for (const name of SECRET_NAMES) await secrets.remove(name).catch(() => {});
  });

  it('exits on SIGTERM within its bound and frees the data folder', async () => {
    broker.freeze();
    await host.stop('SIGTERM');
    expect(await host.exitCode).toBe(0);
    // The fleet link's own deadline ended its close (5 s), not the services' bound behind it (20 s):
    // what ended it is in the log, so no clock of this machine's decides the test.
    expect(kioskEvents(host.dataDir, 'fleet.goodbye_timeout')).toHaveLength(1);
    expect(kioskEvents(host.dataDir, 'services.close_timeout')).toHaveLength(0);
    expect(kioskEvents(host.dataDir, 'services.stopped')).toHaveLength(1);
    expect(fs.existsSync(path.join(host.dataDir, DATA_FILES.lock))).toBe(false);
  });
});
