import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextMessage as nextOn, startMosquitto, type Mosquitto } from '../../test/support/mosquitto.node.ts';
import { UpdateState } from '../../common/update-state.std.ts';
import { fakeElectron, installFakeElectronForCommonJs } from '../electron/fake-electron.test-support.ts';
import { FleetHealth } from '../fleet/fleet-messages.std.ts';
import { startKioskServices, type KioskServices } from '../kiosk-services.node.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { KeytarSecretStore, SECRET_NAMES } from '../secrets/secret-store.node.ts';
import { startUpdateFeed } from './update-feed.test-support.ts';

/**
 * The kiosk's services with electron-updater (through the fake Electron module) on a real feed and
 * a real Mosquitto: health carries the channel and the update state, update-check runs a check.
 */
describe('updates over the fleet broker', () => {
  const keychainService = `loyalty-kiosk-test-${crypto.randomUUID()}`;
  const secrets = new KeytarSecretStore({ logger: silentLogger, service: keychainService });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-update-'));
  const savedEnv = { APPIMAGE: process.env.APPIMAGE, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME };
  const savedResourcesPath = (process as { resourcesPath?: string }).resourcesPath;
  let restoreElectron: () => void;
  let broker: Mosquitto;
  let observer: MqttClient;
  let feed: Awaited<ReturnType<typeof startUpdateFeed>>;
  let services: KioskServices;
  const quitToInstall = vi.fn();

  beforeAll(async () => {
    restoreElectron = installFakeElectronForCommonJs(fakeElectron({ userData: dataDir, version: '1.0.0', isPackaged: true }));
    process.env.APPIMAGE = path.join(dataDir, 'Loyalty-Kiosk.AppImage');
    fs.writeFileSync(process.env.APPIMAGE, 'loyalty kiosk 1.0.0');
    process.env.XDG_CACHE_HOME = path.join(dataDir, 'cache');
    fs.writeFileSync(path.join(dataDir, 'app-update.yml'), 'provider: generic\nurl: https://updates.invalid/\nupdaterCacheDirName: loyalty-kiosk-updater\n');
    (process as { resourcesPath?: string }).resourcesPath = dataDir;
    feed = await startUpdateFeed();
    broker = await startMosquitto({ users: { kiosk: 'kiosk-pw', fleet: 'fleet-pw' }, acl: { kiosk: ['loyalty-kiosk/k1/#'], fleet: ['loyalty-kiosk/#'] } });
    observer = await mqtt.connectAsync(broker.url, { username: 'fleet', password: 'fleet-pw' });
    await secrets.set('mqttPassword', 'kiosk-pw');
    const { AppImageUpdater } = await import('electron-updater');
    services = await startKioskServices({
      dataDir,
      version: '1.0.0',
      keychainService,
      update: { updater: new AppImageUpdater(), quitToInstall, runningAppImage: process.env.APPIMAGE },
    });
  });

  afterAll(async () => {
    await services?.close();
    await observer?.endAsync();
    await broker?.stop();
    await feed?.close();
    for (const name of SECRET_NAMES) await secrets.remove(name).catch(() => {});
    restoreElectron();
    for (const [key, value] of Object.entries(savedEnv)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    (process as { resourcesPath?: string }).resourcesPath = savedResourcesPath;
  });

  const nextMessage = (topic: string, accept: (text: string) => boolean, trigger?: () => unknown) => nextOn(observer, topic, accept, trigger);

  it('publishes the channel and the update state in health (off without a feed)', async () => {
    const health = nextMessage('loyalty-kiosk/k1/health', () => true, () =>
      services.config.setMany({ 'fleet.mqtt.url': broker.url, 'fleet.mqtt.username': 'kiosk', 'fleet.kioskId': 'k1' }),
    );
    const parsed = FleetHealth.parse(JSON.parse(await health));
    expect(parsed).toMatchObject({ version: '1.0.0', channel: 'stable', update: { state: 'off', note: 'update.feedUrl is not set', currentVersion: '1.0.0' } });
  });

  it('answers update-check with the state after the check: downloaded, waiting for the window', async () => {
    feed.publish({ version: '1.1.0', payload: Buffer.from('loyalty kiosk 1.1.0') });
    // A window that is not now: the download is kept, nothing is installed.
    const hour = new Date().getHours();
    const pad = (value: number) => String(value % 24).padStart(2, '0');
    const healthDownloaded = nextMessage('loyalty-kiosk/k1/health', (text) => text.includes('"downloadedVersion":"1.1.0"'));
    services.config.setMany({ 'update.feedUrl': feed.url, 'update.window': `${pad(hour + 2)}:00-${pad(hour + 3)}:00` });
    const answer = JSON.parse(
      await nextMessage('loyalty-kiosk/k1/cmd/update-check/result', () => true, () =>
        observer.publishAsync('loyalty-kiosk/k1/cmd/update-check', '{"id":"u-1"}', { qos: 1 }),
      ),
    ) as { id: string; ok: boolean; result: { update: unknown } };
    expect(answer).toMatchObject({ id: 'u-1', ok: true });
    expect(UpdateState.parse(answer.result.update)).toMatchObject({ state: 'downloaded', downloadedVersion: '1.1.0', feedOrigin: new URL(feed.url).origin });
    expect(quitToInstall).not.toHaveBeenCalled();
    // Health goes out at the change, not only on the 60 s timer.
    expect(FleetHealth.parse(JSON.parse(await healthDownloaded)).update).toMatchObject({ state: 'downloaded', downloadedVersion: '1.1.0' });
  });

  it('shows the update state in the console\'s diagnostics', async () => {
    const diagnostics = JSON.parse(
      await nextMessage('loyalty-kiosk/k1/cmd/diagnostics/result', () => true, () =>
        observer.publishAsync('loyalty-kiosk/k1/cmd/diagnostics', '{"id":"d-1"}', { qos: 1 }),
      ),
    ) as { result: { update: unknown } };
    expect(UpdateState.parse(diagnostics.result.update)).toMatchObject({ state: 'downloaded', channel: 'stable' });
  });
});
