import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from '../test/support/built-cli.node.ts';
import { nextMessage, startShippedMosquitto, type Mosquitto } from '../test/support/mosquitto.node.ts';
import { until } from '../test/support/until.std.ts';
import { FleetHealth } from './fleet/fleet-messages.std.ts';
import { ConfigStore } from './config/config-store.node.ts';
import { startKioskServices, type KioskServices } from './kiosk-services.node.ts';
import { silentLogger } from './logging/logger.std.ts';
import { KeytarSecretStore, SECRET_NAMES } from './secrets/secret-store.node.ts';

/**
 * #35 §1: the desired settings kept on the shipped broker, set with the real kioskctl and applied
 * by the kiosk's own services: the fleet's layer, a group's over it, a kiosk's over both; a kiosk
 * that was off when they changed converges when it connects; what a kiosk refuses shows as drift
 * in its health, `fleet ls` and `fleet settings diff`.
 */
describe('desired settings on the fleet broker (#35 §1)', () => {
  const keychainService = `loyalty-kiosk-test-${crypto.randomUUID()}`;
  const secrets = new KeytarSecretStore({ logger: silentLogger, service: keychainService });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'desired-settings-'));
  let broker: Mosquitto;
  let operator: MqttClient;
  let services: KioskServices | null = null;

  /** The real kioskctl, as the fleet's operator, from a laptop with no data folder of its own. */
  function kioskctl(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const laptop = path.join(os.tmpdir(), `desired-settings-laptop-${process.pid}`);
    return new Promise((resolve) => {
      const child = execFile(
        process.execPath,
        [builtCli('kioskctl'), '--data', laptop, 'fleet', ...args, '--broker', broker.url, '--user', 'fleet-operator'],
        { encoding: 'utf8', env: { ...process.env, KIOSKCTL_FLEET_PASSWORD: 'operator-pw', KIOSK_PROVISIONING_FILE: path.join(laptop, 'none.json') } },
        (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
      );
    });
  }

  /** The kiosk store-1, in group pilot, started on its data folder; resolves once it is online. `seen` gets each idle timeout it takes on the way. */
  async function startKiosk(seen: number[] = []) {
    const started = await startKioskServices({ dataDir, version: 'test', keychainService, host: { restart: () => {}, quit: () => {} } });
    started.config.onChange((current) => seen.push(current.idle.timeoutSeconds));
    services = started;
    await nextMessage(operator, 'loyalty-kiosk/store-1/status', (text) => text === 'online', () =>
      started.config.setMany({ 'fleet.mqtt.url': broker.url, 'fleet.mqtt.username': 'store-1', 'fleet.kioskId': 'store-1', 'fleet.groups': ['pilot'] }),
    );
    return started;
  }

  /** store-1's health once it says `desiredSettings` is `state`. */
  function healthOnceSettings(state: 'applied' | 'drifting', change: () => Promise<unknown>): Promise<FleetHealth> {
    return nextMessage(operator, 'loyalty-kiosk/store-1/health', (text) => FleetHealth.parse(JSON.parse(text)).desiredSettings?.state === state, change).then((text) => FleetHealth.parse(JSON.parse(text)));
  }

  beforeAll(async () => {
    broker = await startShippedMosquitto({ 'store-1': 'store-1-pw', 'fleet-operator': 'operator-pw' });
    operator = await mqtt.connectAsync(broker.url, { username: 'fleet-operator', password: 'operator-pw', reconnectPeriod: 100, clientId: 'observer' });
    await secrets.set('mqttPassword', 'store-1-pw');
    await startKiosk();
  });

  afterAll(async () => {
    await services?.close();
    await operator?.endAsync(true);
    await broker?.stop();
    for (const name of SECRET_NAMES) await secrets.remove(name).catch(() => {});
  });

  it('applies the fleet\'s layer, a group\'s over it and the kiosk\'s over both, at once, and says so in its health', async () => {
    const kiosk = services!;
    expect((await kioskctl(['settings', 'set', '--all', 'idle.timeoutSeconds=90', 'brand.name=Welcome'])).code).toBe(0);
    await until(() => kiosk.config.get().idle.timeoutSeconds === 90, { failure: 'the fleet layer was not applied' });
    expect((await kioskctl(['settings', 'set', '--group', 'pilot', 'idle.timeoutSeconds=120'])).code).toBe(0);
    await until(() => kiosk.config.get().idle.timeoutSeconds === 120, { failure: 'the group layer was not applied' });
    expect((await kioskctl(['settings', 'set', 'store-1', 'idle.timeoutSeconds=45'])).code).toBe(0);
    await until(() => kiosk.config.get().idle.timeoutSeconds === 45, { failure: 'the kiosk layer was not applied' });
    expect(kiosk.config.get().brand.name).toBe('Welcome');
    expect((await healthOnceSettings('applied', async () => {})).desiredSettings).toEqual({ state: 'applied', drift: {} });

    const shown = await kioskctl(['settings', 'show']);
    expect(shown.stdout.trim().split('\n').map((line) => line.split(/\s{2,}/))).toEqual([
      ['LAYER', 'KEY', 'VALUE'],
      ['all', 'idle.timeoutSeconds', '90'],
      ['all', 'brand.name', '"Welcome"'],
      ['group/pilot', 'idle.timeoutSeconds', '120'],
      ['store-1', 'idle.timeoutSeconds', '45'],
    ]);
  });

  it('converges a kiosk that was off when the settings changed, within its first connect back (the done-when)', async () => {
    await services!.close();
    services = null;
    expect((await kioskctl(['settings', 'set', 'store-1', 'idle.timeoutSeconds=75'])).code).toBe(0);
    const diff = await kioskctl(['settings', 'diff']);
    expect(diff.code).toBe(3);
    expect(diff.stdout).toMatch(/^store-1\s+-\s+offline: it applies its layers when it connects$/m);

    // Its layers ask 90 (the fleet), 120 (its group), 75 (its own): it goes straight to 75, and says
    // it is online only once it runs them.
    const seen: number[] = [];
    const kiosk = await startKiosk(seen);
    expect(kiosk.config.get().idle.timeoutSeconds).toBe(75);
    expect(seen.filter((value, index) => value !== seen[index - 1])).toEqual([45, 75]);
  });

  it('refuses over the fleet what config-set refuses, before anything is published, and shows a refused layer as drift in ls and diff', async () => {
    const refused = await kioskctl(['settings', 'set', '--all', 'manager.pinHash=x']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/manager\.pinHash is not set over the fleet/);
    expect((await kioskctl(['settings', 'set', '--all', 'no.such=1'])).stderr).toMatch(/unknown setting "no\.such"/);
    expect((await kioskctl(['settings', 'set', '--all', 'idle.timeoutSeconds=never'])).stderr).toMatch(/idle\.timeoutSeconds: "never" is no value this setting takes/);

    // A layer kioskctl would not write, put on the broker by other means.
    const health = await healthOnceSettings('drifting', () =>
      operator.publishAsync('loyalty-kiosk/store-1/settings', JSON.stringify({ 'idle.timeoutSeconds': 75, 'manager.pinHash': 'x', 'fleet.mqtt.url': 'mqtt://elsewhere:1883' }), { qos: 1, retain: true }),
    );
    expect(health.desiredSettings).toEqual({
      state: 'drifting',
      drift: { 'manager.pinHash': expect.stringMatching(/^refused: not set over the fleet/), 'fleet.mqtt.url': expect.stringMatching(/^refused: not set over the fleet/) },
    });
    expect(services!.config.get().fleet.mqtt.url).toBe(broker.url);

    const listed = await kioskctl(['ls']);
    expect(listed.stdout).toMatch(/^store-1\s+online\s.*\sDRIFTING \(2\)\s/m);
    const diff = await kioskctl(['settings', 'diff', '--json']);
    expect(diff.code).toBe(3);
    expect(JSON.parse(diff.stdout)).toEqual([
      { kioskId: 'store-1', key: 'manager.pinHash', why: expect.stringMatching(/^refused/) },
      { kioskId: 'store-1', key: 'fleet.mqtt.url', why: expect.stringMatching(/^refused/) },
    ]);

    // The layer cleared: nothing is left to differ.
    const applied = await healthOnceSettings('applied', () => kioskctl(['settings', 'set', 'store-1', '--clear']));
    expect(applied.desiredSettings).toEqual({ state: 'applied', drift: {} });
    expect((await kioskctl(['settings', 'diff'])).code).toBe(0);
  });

  it('says when a setting was changed on the kiosk since the fleet set it', async () => {
    const health = await healthOnceSettings('drifting', async () => services!.config.set('idle.timeoutSeconds', 300));
    expect(health.desiredSettings?.drift).toEqual({ 'idle.timeoutSeconds': 'changed here since the fleet set it' });
  });

  it('gives back what no layer asks any more, to what the kiosk had before the fleet set it, when the layers went while it was off', async () => {
    const fresh = new ConfigStore({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'desired-settings-fresh-')), logger: silentLogger }).get();
    await services!.close();
    services = null;
    for (const layer of [['--all'], ['--group', 'pilot'], ['store-1']]) expect((await kioskctl(['settings', 'set', ...layer, '--clear'])).code).toBe(0);
    const kiosk = await startKiosk();
    expect({ idle: kiosk.config.get().idle.timeoutSeconds, brand: kiosk.config.get().brand.name }).toEqual({ idle: fresh.idle.timeoutSeconds, brand: fresh.brand.name });
  });
});
