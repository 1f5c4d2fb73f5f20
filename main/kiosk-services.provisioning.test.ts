import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { builtCli } from '../test/support/built-cli.node.ts';
import { nextMessage, startShippedMosquitto, type Mosquitto } from '../test/support/mosquitto.node.ts';
import { BridgeConnection } from './bridge/dispatcher.std.ts';
import { FleetHealth } from './fleet/fleet-messages.std.ts';
import { startKioskServices, type KioskServices } from './kiosk-services.node.ts';
import { silentLogger } from './logging/logger.std.ts';
import { KeytarSecretStore, SECRET_NAMES } from './secrets/secret-store.node.ts';

/**
 * #35 §4: one typo in a provisioning file (`"nightlyRestart": "4:30"`) made a kiosk boot in demo
 * mode with sample cards, off its broker, saying so in one log line. Now it serves no shopper and
 * says why on stdout, on its screen's settings, and in its health on the broker its file's valid
 * fleet section names, where `kioskctl fleet ls` shows it.
 */
describe('a kiosk whose provisioning file is invalid (#35 §4)', () => {
  const keychainService = `loyalty-kiosk-test-${crypto.randomUUID()}`;
  const secrets = new KeytarSecretStore({ logger: silentLogger, service: keychainService });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bad-provisioning-'));
  const provisioningFile = path.join(dir, 'config.json');
  let broker: Mosquitto;
  let operator: MqttClient;
  let services: KioskServices;
  let said = '';
  let health: FleetHealth;

  beforeAll(async () => {
    broker = await startShippedMosquitto({ 'store-7': 'store-7-pw', 'fleet-operator': 'operator-pw' });
    operator = await mqtt.connectAsync(broker.url, { username: 'fleet-operator', password: 'operator-pw', reconnectPeriod: 100, clientId: 'observer' });
    await secrets.set('mqttPassword', 'store-7-pw');
    fs.writeFileSync(provisioningFile, JSON.stringify({ fleet: { mqtt: { url: broker.url, username: 'store-7' }, kioskId: 'store-7' }, schedule: { nightlyRestart: '4:30' }, idle: { timeoutSeconds: 90 } }));
    vi.stubEnv('KIOSK_PROVISIONING_FILE', provisioningFile);
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((said += String(chunk)), true));
    const healthText = await nextMessage(operator, 'loyalty-kiosk/store-7/health', () => true, async () => {
      services = await startKioskServices({ dataDir: path.join(dir, 'data'), version: 'test', keychainService, host: { restart: () => {}, quit: () => {} } });
    });
    stdout.mockRestore();
    vi.unstubAllEnvs();
    health = FleetHealth.parse(JSON.parse(healthText));
  });

  afterAll(async () => {
    await services?.close();
    await operator?.endAsync(true);
    await broker?.stop();
    for (const name of SECRET_NAMES) await secrets.remove(name).catch(() => {});
  });

  it('serves no shopper: its screens are told setup is needed and why, and nothing else of the file applies', async () => {
    const settings = await services.dispatch('getSettings', {}, new BridgeConnection('window'));
    expect(settings).toMatchObject({ ok: true, value: { setupNeeded: expect.stringMatching(/^schedule\.nightlyRestart: /) } });
    expect(services.config.get().idle.timeoutSeconds).toBe(60);
    expect(said).toMatch(/^loyalty-kiosk: SETUP NEEDED: the provisioning file is invalid \(schedule\.nightlyRestart: .*\); the kiosk serves no shopper until it is fixed/m);
  });

  it('joins the broker its file names and says it in its health, where fleet ls shows it', async () => {
    expect(health.setupNeeded).toMatch(/^schedule\.nightlyRestart: /);
    const listed = await new Promise<{ stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [builtCli('kioskctl'), '--data', path.join(dir, 'laptop'), 'fleet', 'ls', '--broker', broker.url, '--user', 'fleet-operator'],
        { encoding: 'utf8', env: { ...process.env, KIOSKCTL_FLEET_PASSWORD: 'operator-pw', KIOSK_PROVISIONING_FILE: path.join(dir, 'none.json') } },
        (_error, stdout, stderr) => resolve({ stdout, stderr }),
      ),
    );
    expect(listed.stdout).toMatch(/^store-7\s+online\s.*\sSETUP NEEDED\s/m);
    expect(listed.stderr).toMatch(/store-7 serves no shopper: its provisioning file is invalid: schedule\.nightlyRestart: /);
  });
});
