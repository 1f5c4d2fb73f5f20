import fs from 'node:fs';
import type { AppUpdater, UpdateInfo } from 'electron-updater';
import { serialQueue } from '../../base/queue.std.ts';
import type { KioskConfig } from '../../common/config-schema.std.ts';
import { type UpdateChannel, type UpdateState, updatesNotChecked } from '../../common/update-state.std.ts';
import type { KioskActivity } from '../activity/kiosk-activity.std.ts';
import type { ConfigStore } from '../config/config-store.node.ts';
import type { Logger } from '../logging/logger.std.ts';
import { channelFileBase, compareVersions, installBlocker, retryDelayMs } from './update-policy.std.ts';
import { FailedVersion, InstalledMarker, keepInstallersForRollback, readJsonFile, updateFiles, writeJsonFile } from './update-files.node.ts';

export const CHECK_INTERVAL_MS = 4 * 60 * 60_000;
/** How often a downloaded update looks again at the clock and the kiosk (besides screen changes). */
export const INSTALL_POLL_MS = 30_000;
/** How long a freshly updated version has to show the attract screen before it counts as failed. */
export const FIRST_ATTRACT_TIMEOUT_MS = 60_000;

/** The part of electron-updater's AppUpdater the service drives (AppImageUpdater, NsisUpdater, …). */
export type Updater = Pick<
  AppUpdater,
  'setFeedURL' | 'checkForUpdates' | 'quitAndInstall' | 'autoDownload' | 'autoInstallOnAppQuit' | 'allowPrerelease' | 'allowDowngrade' | 'logger' | 'isUpdateSupported'
>;

export interface UpdateServiceOptions {
  /** electron-updater's updater; null where the host has no installer (the browser host). */
  updater: Updater | null;
  /** Why updates are off in this host, when `updater` is null. */
  offNote?: string;
  config: ConfigStore;
  activity: Pick<KioskActivity, 'isIdle' | 'onChange' | 'attractReachedAt'>;
  logger: Logger;
  dataDir: string;
  version: string;
  /**
   * Quits the kiosk the way it always quits (the services close, so every voucher lock is
   * released), then calls `install` (electron-updater's quitAndInstall) instead of exiting.
   */
  quitToInstall: (install: () => void) => void;
  /** The AppImage this kiosk runs from (process.env.APPIMAGE), kept aside for rollback. */
  runningAppImage?: string | null;
  now?: () => Date;
  checkIntervalMs?: number;
  installPollMs?: number;
  firstRetryMs?: number;
  firstAttractTimeoutMs?: number;
}

/** Words for the console and the fleet: the first line of an error, without its stack or raw feed text. */
function plainError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const line = (message.split('\n')[0] ?? '').slice(0, 300);
  return typeof code === 'string' && !line.includes(code) ? `${code}: ${line}` : line;
}

/**
 * Keeps the kiosk up to date from its feed (update.*): checks at start, every 4 h and on demand;
 * electron-updater downloads in the background and verifies the sha512; the service installs only
 * inside update.window on an idle kiosk, and otherwise waits for that moment. A failure is
 * retried with backoff while the running version keeps serving.
 */
export class UpdateService {
  readonly #options: UpdateServiceOptions;
  readonly #files: ReturnType<typeof updateFiles>;
  readonly #now: () => Date;
  readonly #checkIntervalMs: number;
  readonly #listeners = new Set<(state: UpdateState) => void>();
  #state: UpdateState;
  #feed: { url: string; channel: UpdateChannel } | null = null;
  #failures = 0;
  #nextCheck: NodeJS.Timeout | undefined;
  #installPoll: NodeJS.Timeout | undefined;
  #stopWaiting: (() => void) | null = null;
  #downloaded: { version: string; file: string } | null = null;
  #checking: Promise<void> | null = null;
  readonly #stateWrites = serialQueue();
  #closed = false;
  readonly #stopWatchingConfig: () => void;
  readonly #stopFirstAttract: () => void;

  constructor(options: UpdateServiceOptions) {
    this.#options = options;
    this.#files = updateFiles(options.dataDir);
    this.#now = options.now ?? (() => new Date());
    this.#checkIntervalMs = options.checkIntervalMs ?? CHECK_INTERVAL_MS;
    const { update } = options.config.get();
    this.#state = updatesNotChecked(options.version, update.channel, {
      failedVersion: readJsonFile(this.#files.failedVersion, FailedVersion)?.version ?? null,
    });
    this.#prepareUpdater();
    this.#stopFirstAttract = this.#watchFirstAttract();
    this.#apply(options.config.get());
    this.#stopWatchingConfig = options.config.onChange((current) => this.#apply(current));
  }

  state(): UpdateState {
    return { ...this.#state };
  }

  onChange(listener: (state: UpdateState) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Checks now (the fleet's update-check, kioskctl, the timer); resolves with the state after the check and any download. */
  async checkNow(): Promise<UpdateState> {
    await this.#check();
    return this.state();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#stopWatchingConfig();
    this.#stopFirstAttract();
    this.#stopTimers();
    await this.#stateWrites.idle();
  }

  #prepareUpdater() {
    const { updater, logger } = this.#options;
    if (!updater) return;
    updater.autoDownload = true;
    // Never on an ordinary quit (a restart, the OS shutting down): only inside the window, when idle.
    updater.autoInstallOnAppQuit = false;
    // A kiosk goes back to an older version only by a rollback, never because a feed says so.
    updater.allowDowngrade = false;
    const updaterLog = logger.child({ part: 'electron-updater' });
    updater.logger = {
      info: (message?: unknown) => updaterLog.info(String(message)),
      warn: (message?: unknown) => updaterLog.warn(String(message)),
      error: (message?: unknown) => updaterLog.error(plainError(message)),
    };
    // A version that failed here (no attract screen, or rolled back) is not taken again.
    updater.isUpdateSupported = (info: UpdateInfo) => info.version !== this.#state.failedVersion;
  }

  #apply(current: KioskConfig) {
    const { url, channel } = { url: current.update.feedUrl, channel: current.update.channel };
    if (this.#feed?.url === url && this.#feed.channel === channel) return;
    this.#stopTimers();
    // A download from another feed or channel is not what the settings ask for now.
    this.#downloaded = null;
    const { updater } = this.#options;
    if (!updater || url === null) {
      this.#feed = null;
      const note = updater ? 'update.feedUrl is not set' : (this.#options.offNote ?? 'this host cannot install updates');
      this.#set({ state: 'off', note, channel, feedOrigin: null, availableVersion: null, downloadedVersion: null, retryAt: null });
      return;
    }
    this.#feed = { url, channel };
    // electron-updater's channel semantics: beta-linux.yml, and pre-release versions taken on beta.
    updater.setFeedURL({ provider: 'generic', url, channel: channelFileBase(channel) });
    updater.allowPrerelease = channel === 'beta';
    this.#failures = 0;
    this.#set({ state: 'idle', note: null, channel, feedOrigin: new URL(url).origin, availableVersion: null, downloadedVersion: null, retryAt: null, lastError: null });
    this.#scheduleCheck(0);
  }

  #check(): Promise<void> {
    this.#checking ??= this.#checkOnce().finally(() => (this.#checking = null));
    return this.#checking;
  }

  async #checkOnce(): Promise<void> {
    const { updater } = this.#options;
    if (!updater || !this.#feed || this.#closed || this.#state.state === 'installing') return;
    clearTimeout(this.#nextCheck);
    const feed = this.#feed;
    if (this.#downloaded === null) this.#set({ state: 'checking' });
    try {
      const result = await updater.checkForUpdates();
      // The settings moved to another feed or channel meanwhile: that one's check decides.
      if (this.#feed !== feed) return;
      if (!result) {
        this.#set({ state: 'off', note: 'electron-updater is inactive here (not a packaged app, or on Linux not an AppImage or deb)' });
        return;
      }
      const at = this.#now().getTime();
      if (!result.isUpdateAvailable || !result.downloadPromise) {
        this.#noUpdate(result.updateInfo, at);
        return;
      }
      const version = result.updateInfo.version;
      if (this.#downloaded?.version !== version) {
        this.#set({ state: 'downloading', note: null, availableVersion: version, lastCheckAt: at });
      }
      const [file] = await result.downloadPromise;
      if (this.#feed !== feed) return;
      if (!file) throw new Error('electron-updater reported a download without a file');
      await this.#downloadedUpdate({ version, file }, at);
    } catch (error) {
      this.#failed(error);
      return;
    }
    if (!this.#closed) this.#scheduleCheck(this.#checkIntervalMs);
    this.#maybeInstall();
  }

  /**
   * Nothing to take. A download still waiting for the window is dropped too: the feed no longer
   * offers it to this kiosk (pulled back, or its rollout stage lowered).
   */
  #noUpdate(info: UpdateInfo, at: number) {
    const { logger } = this.#options;
    this.#failures = 0;
    if (this.#downloaded) logger.info('the feed no longer offers the downloaded update: it is not installed', { version: this.#downloaded.version });
    this.#downloaded = null;
    this.#stopWaiting?.();
    const note = info.version === this.#state.failedVersion ? `${info.version} failed on this kiosk and is skipped` : null;
    const staged = info.stagingPercentage !== undefined && compareVersions(info.version, this.#options.version) > 0 && note === null;
    if (staged) logger.info('a staged update does not include this kiosk yet', { version: info.version, stagingPercentage: info.stagingPercentage });
    this.#set({
      state: 'idle',
      downloadedVersion: null,
      note: note ?? (staged ? `${info.version} is rolled out to ${info.stagingPercentage}% of kiosks, not yet this one` : null),
      availableVersion: null,
      lastCheckAt: at,
      lastError: null,
      retryAt: null,
    });
    this.#scheduleCheck(this.#checkIntervalMs);
  }

  async #downloadedUpdate(downloaded: { version: string; file: string }, at: number) {
    const { logger } = this.#options;
    if (this.#downloaded?.version !== downloaded.version) {
      // Ahead of the window: copying a large AppImage must not delay the install once idle.
      await keepInstallersForRollback({
        dataDir: this.#options.dataDir,
        runningVersion: this.#options.version,
        runningAppImage: this.#options.runningAppImage ?? null,
        downloaded,
      });
      logger.info('update downloaded and verified', { version: downloaded.version });
    }
    this.#downloaded = downloaded;
    this.#failures = 0;
    this.#set({ state: 'downloaded', downloadedVersion: downloaded.version, availableVersion: downloaded.version, lastCheckAt: at, lastError: null, retryAt: null });
  }

  #failed(error: unknown) {
    this.#failures += 1;
    const delay = retryDelayMs(this.#failures, this.#checkIntervalMs, this.#options.firstRetryMs);
    const at = this.#now().getTime();
    const lastError = plainError(error);
    this.#options.logger.warn('update check or download failed; the running version keeps serving', { event: 'update.failed', error: lastError, failures: this.#failures, retryInMs: delay });
    this.#set({ state: this.#downloaded ? 'downloaded' : 'error', lastError, lastCheckAt: at, retryAt: at + delay });
    this.#scheduleCheck(delay);
  }

  #scheduleCheck(delayMs: number) {
    clearTimeout(this.#nextCheck);
    if (this.#closed) return;
    this.#nextCheck = setTimeout(() => void this.#check(), delayMs);
    this.#nextCheck.unref();
  }

  /** Installs when the window is open and the kiosk idle; otherwise waits (screen changes and a poll). */
  #maybeInstall() {
    if (this.#state.state !== 'downloaded' || this.#closed) return;
    const blocker = installBlocker({ window: this.#options.config.get().update.window, now: this.#now(), idle: this.#options.activity.isIdle() });
    if (blocker) {
      if (this.#state.note !== blocker) this.#set({ note: blocker });
      this.#waitToInstall();
      return;
    }
    void this.#install();
  }

  #waitToInstall() {
    if (this.#stopWaiting) return;
    const poll = setInterval(() => this.#maybeInstall(), this.#options.installPollMs ?? INSTALL_POLL_MS);
    poll.unref();
    const stopListening = this.#options.activity.onChange(() => this.#maybeInstall());
    this.#stopWaiting = () => {
      clearInterval(poll);
      stopListening();
      this.#stopWaiting = null;
    };
  }

  async #install() {
    const downloaded = this.#downloaded;
    if (!downloaded) return;
    const { updater, logger, version } = this.#options;
    this.#stopTimers();
    this.#set({ state: 'installing', note: null });
    logger.info('installing the update: the kiosk closes and restarts', { event: 'update.installing', from: version, to: downloaded.version });
    await writeJsonFile(this.#files.installed, { version: downloaded.version, fromVersion: version, installedAt: this.#now().getTime() } satisfies InstalledMarker);
    await this.#stateWrites.idle();
    // A shopper may have touched the screen while the marker was written: then wait again.
    if (!this.#options.activity.isIdle()) {
      fs.rmSync(this.#files.installed, { force: true });
      this.#set({ state: 'downloaded' });
      this.#maybeInstall();
      return;
    }
    // Silent, and started again afterwards: a kiosk has nobody to click through an installer.
    this.#options.quitToInstall(() => updater?.quitAndInstall(true, true));
  }

  /**
   * After an update, this version must reach the attract screen within the timeout; if it does
   * not, it is reported (state, log, fleet health) and never taken again from the feed.
   */
  #watchFirstAttract(): () => void {
    const { activity, version, logger } = this.#options;
    const marker = readJsonFile(this.#files.installed, InstalledMarker);
    if (marker?.version !== version) return () => {};
    logger.info('first start after an update: waiting for the attract screen', { version, from: marker.fromVersion });
    const confirm = () => {
      if (activity.attractReachedAt() === null) return false;
      stop();
      fs.rmSync(this.#files.installed, { force: true });
      logger.info('the updated version reached the attract screen', { version });
      return true;
    };
    const timer = setTimeout(() => {
      if (confirm()) return;
      stop();
      logger.error('the updated version did not reach the attract screen in time; kioskctl update rollback installs the previous one', { event: 'update.not_started', version, from: marker.fromVersion });
      void writeJsonFile(this.#files.failedVersion, { version, reason: 'no attract screen after the update', at: this.#now().getTime() } satisfies FailedVersion);
      this.#set({ failedVersion: version });
    }, this.#options.firstAttractTimeoutMs ?? FIRST_ATTRACT_TIMEOUT_MS);
    timer.unref();
    const stopListening = activity.onChange(() => void confirm());
    const stop = () => {
      clearTimeout(timer);
      stopListening();
    };
    if (confirm()) return () => {};
    return stop;
  }

  #stopTimers() {
    clearTimeout(this.#nextCheck);
    this.#stopWaiting?.();
  }

  #set(change: Partial<UpdateState>) {
    this.#state = { ...this.#state, ...change };
    const snapshot = this.state();
    // One write at a time, each the latest state: kioskctl update status reads this file.
    void this.#stateWrites
      .run(() => writeJsonFile(this.#files.state, snapshot))
      .catch((error: unknown) => this.#options.logger.warn('update-state.json could not be written', { error: String(error) }));
    for (const listener of this.#listeners) listener(snapshot);
  }
}
