import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { UpdateState } from '../../common/update-state.std.ts';
import { KioskActivity } from '../activity/kiosk-activity.std.ts';
import { BridgeConnection } from '../bridge/dispatcher.std.ts';
import { ConfigStore } from '../config/config-store.node.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { fakeElectron, installFakeElectronForCommonJs, recordingLogger } from '../electron/fake-electron.test-support.ts';
import { readKeptInstaller, readUpdateState, updateFiles } from './update-files.node.ts';
import { sha512Of, startUpdateFeed } from './update-feed.test-support.ts';
import { UpdateService } from './update-service.node.ts';

/**
 * The update service driving electron-updater's real AppImageUpdater against a real feed on
 * 127.0.0.1 (latest-linux.yml with real sha512 values), through the fake Electron module. Only the
 * very last step, quitAndInstall (which would replace $APPIMAGE and run it), is never run.
 */

const RUNNING = '1.0.0';
const NEW_APP = Buffer.from('#!/bin/sh\necho loyalty kiosk 1.1.0\n');
/** Its last four bytes put this kiosk at 50% of a staged rollout (electron-updater's formula). */
const STAGING_USER_ID = '3f2a1c9e-5b7d-4e8f-9a6b-0c1d80000000';
const IN_WINDOW = new Date(2026, 10, 24, 3, 30);
const OUTSIDE_WINDOW = new Date(2026, 10, 24, 12, 0);

let electronRestore: () => void;
let AppImageUpdater: typeof import('electron-updater').AppImageUpdater;
const savedEnv = { APPIMAGE: process.env.APPIMAGE, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME };
const savedResourcesPath = (process as { resourcesPath?: string }).resourcesPath;
let dir: string;
let feed: Awaited<ReturnType<typeof startUpdateFeed>>;
const services: UpdateService[] = [];

beforeAll(async () => {
  feed = await startUpdateFeed();
});

afterAll(async () => {
  await feed.close();
});

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-update-'));
  const fake = fakeElectron({ userData: dir, version: RUNNING, isPackaged: true });
  electronRestore = installFakeElectronForCommonJs(fake);
  ({ AppImageUpdater } = await import('electron-updater'));
  // What a packaged AppImage has: $APPIMAGE, and app-update.yml (written by electron-builder) in resources.
  process.env.APPIMAGE = path.join(dir, 'Loyalty-Kiosk.AppImage');
  fs.writeFileSync(process.env.APPIMAGE, 'loyalty kiosk 1.0.0');
  process.env.XDG_CACHE_HOME = path.join(dir, 'cache');
  const resources = path.join(dir, 'resources');
  fs.mkdirSync(resources);
  fs.writeFileSync(path.join(resources, 'app-update.yml'), 'provider: generic\nurl: https://updates.invalid/\nupdaterCacheDirName: loyalty-kiosk-updater\n');
  (process as { resourcesPath?: string }).resourcesPath = resources;
  fs.writeFileSync(path.join(dir, '.updaterId'), STAGING_USER_ID);
});

afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
  electronRestore();
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  (process as { resourcesPath?: string }).resourcesPath = savedResourcesPath;
  fs.rmSync(dir, { recursive: true, force: true });
});

function startService({ now = IN_WINDOW, feedUrl = feed.url as string | null, firstAttractTimeoutMs = 60_000 } = {}) {
  const config = new ConfigStore({ dataDir: dir, logger: silentLogger });
  config.setMany({ 'update.feedUrl': feedUrl, 'update.window': '03:00-05:00' });
  let locks = 0;
  const activity = new KioskActivity({ locksHeld: () => locks });
  const screen = new BridgeConnection('screen');
  const updater = new AppImageUpdater();
  const quitAndInstall = vi.spyOn(updater, 'quitAndInstall').mockImplementation(() => {});
  const quitToInstall = vi.fn((_install: () => void) => {});
  const logger = recordingLogger();
  let clock = now;
  const service = new UpdateService({
    updater,
    config,
    activity,
    logger,
    dataDir: dir,
    version: RUNNING,
    quitToInstall,
    runningAppImage: process.env.APPIMAGE,
    now: () => clock,
    installPollMs: 20,
    firstRetryMs: 50,
    firstAttractTimeoutMs,
  });
  services.push(service);
  return {
    service,
    config,
    activity,
    screen,
    quitToInstall,
    quitAndInstall,
    logger,
    setLocks: (count: number) => (locks = count),
    setNow: (date: Date) => (clock = date),
  };
}

const state = (service: UpdateService) => service.state();

describe('UpdateService against a real feed', () => {
  it('downloads a newer version, verifies it, keeps the running AppImage aside and installs in the window when idle', async () => {
    feed.publish({ version: '1.1.0', payload: NEW_APP });
    const { service, quitToInstall, quitAndInstall } = startService();
    await vi.waitFor(() => expect(quitToInstall).toHaveBeenCalledOnce());
    expect(state(service)).toMatchObject({ state: 'installing', downloadedVersion: '1.1.0', feedOrigin: new URL(feed.url).origin });
    // The downloaded file is the served one, byte for byte.
    const cached = path.join(dir, 'cache', 'loyalty-kiosk-updater', 'pending', 'Loyalty-Kiosk-1.1.0.AppImage');
    expect(fs.readFileSync(cached)).toEqual(NEW_APP);
    // Rollback has the running version's AppImage; the next start knows it came from an update.
    const previous = readKeptInstaller(updateFiles(dir).previousDir);
    expect(previous).toMatchObject({ version: RUNNING, replaces: process.env.APPIMAGE });
    expect(fs.readFileSync(previous!.file, 'utf8')).toBe('loyalty kiosk 1.0.0');
    expect(JSON.parse(fs.readFileSync(updateFiles(dir).installed, 'utf8'))).toMatchObject({ version: '1.1.0', fromVersion: RUNNING });
    // The host's quit path runs first; its install step is electron-updater's silent quitAndInstall.
    expect(quitAndInstall).not.toHaveBeenCalled();
    quitToInstall.mock.calls[0]![0]();
    expect(quitAndInstall).toHaveBeenCalledWith(true, true);
    await service.close();
    expect(UpdateState.parse(readUpdateState(dir))).toMatchObject({ state: 'installing', downloadedVersion: '1.1.0' });
  });

  it('leaves a kiosk out of a staged rollout that does not include it, and updates it once the stage does', async () => {
    feed.publish({ version: '1.1.0', payload: NEW_APP, stagingPercentage: 40 });
    const before = feed.downloads();
    const { service, quitToInstall } = startService();
    await vi.waitFor(() => expect(state(service).lastCheckAt).not.toBeNull());
    expect(state(service)).toMatchObject({ state: 'idle', availableVersion: null, downloadedVersion: null });
    expect(state(service).note).toContain('40%');
    expect(feed.downloads()).toBe(before);
    expect(quitToInstall).not.toHaveBeenCalled();

    feed.publish({ version: '1.1.0', payload: NEW_APP, stagingPercentage: 60 });
    await service.checkNow();
    await vi.waitFor(() => expect(quitToInstall).toHaveBeenCalledOnce());
    expect(feed.downloads()).toBe(before + 1);
  });

  it('drops a waiting download when the stage is lowered so that it leaves this kiosk out', async () => {
    feed.publish({ version: '1.1.0', payload: NEW_APP, stagingPercentage: 60 });
    const { service, quitToInstall, setNow } = startService({ now: OUTSIDE_WINDOW });
    await vi.waitFor(() => expect(state(service).state).toBe('downloaded'));
    feed.publish({ version: '1.1.0', payload: NEW_APP, stagingPercentage: 40 });
    await service.checkNow();
    expect(state(service)).toMatchObject({ state: 'idle', downloadedVersion: null });
    setNow(IN_WINDOW);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(quitToInstall).not.toHaveBeenCalled();
  });

  it('waits while a shopper is on a visit, and installs when the visit ends (in the window)', async () => {
    feed.publish({ version: '1.1.0', payload: NEW_APP });
    const { service, activity, screen, quitToInstall } = startService();
    activity.report(screen, 'visit');
    await vi.waitFor(() => expect(state(service).state).toBe('downloaded'));
    await new Promise((resolve) => setTimeout(resolve, 100)); // several install polls
    expect(quitToInstall).not.toHaveBeenCalled();
    expect(state(service).note).toContain('idle');
    activity.report(screen, 'attract');
    await vi.waitFor(() => expect(quitToInstall).toHaveBeenCalledOnce());
  });

  it('waits while a voucher lock is held, though the screen shows attract', async () => {
    feed.publish({ version: '1.1.0', payload: NEW_APP });
    const { service, activity, screen, quitToInstall, setLocks } = startService();
    activity.report(screen, 'attract');
    setLocks(1);
    await vi.waitFor(() => expect(state(service).state).toBe('downloaded'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(quitToInstall).not.toHaveBeenCalled();
    setLocks(0); // released in main: no screen change, the poll sees it
    await vi.waitFor(() => expect(quitToInstall).toHaveBeenCalledOnce());
  });

  it('does not install outside the update window, idle or not, and installs once the window opens', async () => {
    feed.publish({ version: '1.1.0', payload: NEW_APP });
    const { service, quitToInstall, setNow } = startService({ now: OUTSIDE_WINDOW });
    await vi.waitFor(() => expect(state(service).state).toBe('downloaded'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(quitToInstall).not.toHaveBeenCalled();
    expect(state(service).note).toBe('waiting for the update window 03:00-05:00');
    setNow(IN_WINDOW);
    await vi.waitFor(() => expect(quitToInstall).toHaveBeenCalledOnce());
  });

  it('drops a download when the channel changes: a stable download is never installed on beta', async () => {
    feed.publish({ version: '1.1.0', payload: NEW_APP });
    const { service, config, quitToInstall, setNow } = startService({ now: OUTSIDE_WINDOW });
    await vi.waitFor(() => expect(state(service).state).toBe('downloaded'));
    config.set('update.channel', 'beta'); // this feed has no beta-linux.yml
    await vi.waitFor(() => expect(state(service).state).toBe('error'));
    expect(state(service)).toMatchObject({ channel: 'beta', downloadedVersion: null });
    expect(state(service).lastError).toMatch(/beta-linux/);
    setNow(IN_WINDOW);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(quitToInstall).not.toHaveBeenCalled();
  });

  it('refuses a download whose sha512 does not match, retries with backoff, and takes the corrected one', async () => {
    feed.publish({ version: '1.1.0', payload: NEW_APP, sha512: sha512Of(Buffer.from('another file')) });
    const before = feed.downloads();
    const { service, quitToInstall, logger } = startService();
    await vi.waitFor(() => expect(state(service).state).toBe('error'));
    expect(state(service)).toMatchObject({ currentVersion: RUNNING, downloadedVersion: null });
    expect(state(service).lastError).toMatch(/sha512|checksum/i);
    expect(state(service).retryAt).not.toBeNull();
    expect(logger.lines).toContainEqual(expect.objectContaining({ level: 'warn', fields: expect.objectContaining({ event: 'update.failed' }) }));
    // Retried by itself (50 ms, then 100 ms, …): still refused while the feed is wrong.
    await vi.waitFor(() => expect(feed.downloads()).toBeGreaterThanOrEqual(before + 2));
    expect(quitToInstall).not.toHaveBeenCalled();
    expect(fs.existsSync(path.join(dir, 'cache', 'loyalty-kiosk-updater', 'pending', 'Loyalty-Kiosk-1.1.0.AppImage'))).toBe(false);

    feed.publish({ version: '1.1.0', payload: NEW_APP });
    await vi.waitFor(() => expect(quitToInstall).toHaveBeenCalledOnce());
    expect(state(service).lastError).toBeNull();
  });

  it('is off without a feed URL', async () => {
    const { service } = startService({ feedUrl: null });
    expect(state(service)).toMatchObject({ state: 'off', note: 'update.feedUrl is not set', feedOrigin: null });
  });

  it('is off in a host without an installer', () => {
    const config = new ConfigStore({ dataDir: dir, logger: silentLogger });
    config.set('update.feedUrl', feed.url);
    const service = new UpdateService({
      updater: null,
      offNote: 'the browser host has no installer',
      config,
      activity: new KioskActivity({ locksHeld: () => 0 }),
      logger: silentLogger,
      dataDir: dir,
      version: RUNNING,
      quitToInstall: () => {},
    });
    services.push(service);
    expect(state(service)).toMatchObject({ state: 'off', note: 'the browser host has no installer' });
  });
});

describe('UpdateService after an update (rollback report)', () => {
  function markInstalled() {
    fs.mkdirSync(path.join(dir, 'updates'), { recursive: true });
    fs.writeFileSync(updateFiles(dir).installed, JSON.stringify({ version: RUNNING, fromVersion: '0.9.0', installedAt: Date.now() }));
  }

  it('reports the version as failed when the attract screen is not reached in time, and never takes it again', async () => {
    markInstalled();
    feed.publish({ version: '1.1.0', payload: NEW_APP });
    const { service, logger } = startService({ feedUrl: null, firstAttractTimeoutMs: 50 });
    await vi.waitFor(() => expect(state(service).failedVersion).toBe(RUNNING));
    expect(logger.lines).toContainEqual(expect.objectContaining({ level: 'error', fields: expect.objectContaining({ event: 'update.not_started' }) }));
    await vi.waitFor(() => expect(JSON.parse(fs.readFileSync(updateFiles(dir).failedVersion, 'utf8'))).toMatchObject({ version: RUNNING }));
  });

  it('confirms the version once the attract screen shows', async () => {
    markInstalled();
    const { service, activity, screen } = startService({ feedUrl: null, firstAttractTimeoutMs: 100 });
    activity.report(screen, 'attract');
    expect(fs.existsSync(updateFiles(dir).installed)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(state(service).failedVersion).toBeNull();
  });

  it('skips a version that failed here, though the feed offers it', async () => {
    fs.mkdirSync(path.join(dir, 'updates'), { recursive: true });
    fs.writeFileSync(updateFiles(dir).failedVersion, JSON.stringify({ version: '1.1.0', reason: 'rolled back', at: 1 }));
    feed.publish({ version: '1.1.0', payload: NEW_APP });
    const before = feed.downloads();
    const { service, quitToInstall } = startService();
    await vi.waitFor(() => expect(state(service).lastCheckAt).not.toBeNull());
    expect(state(service)).toMatchObject({ state: 'idle', failedVersion: '1.1.0', note: '1.1.0 failed on this kiosk and is skipped' });
    expect(feed.downloads()).toBe(before);
    expect(quitToInstall).not.toHaveBeenCalled();
  });
});
