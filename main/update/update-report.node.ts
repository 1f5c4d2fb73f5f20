import type { KioskConfig } from '../../common/config-schema.std.ts';
import type { UpdateState } from '../../common/update-state.std.ts';
import { FeedError, readFeed } from './update-feed.node.ts';
import { readKeptInstaller, readUpdateState, updateFiles } from './update-files.node.ts';
import { compareVersions } from './update-policy.std.ts';

type Rows = string[][];

/** What kioskctl prints about updates: rows of a two-column table. */
export interface UpdateReport {
  rows: Rows;
  ok: boolean;
}

const when = (epochMs: number | null) => (epochMs === null ? 'never' : new Date(epochMs).toISOString());

function settingsRows(config: KioskConfig, runningVersion: string): Rows {
  const { channel, feedUrl, window } = config.update;
  return [
    ['version', runningVersion],
    ['channel', channel],
    ['feed', feedUrl ?? 'none: updates are off (update.feedUrl)'],
    ['window', window],
  ];
}

/** What the running kiosk last wrote (update-state.json): its state, what is available and downloaded. */
function kioskRows(state: UpdateState | null): Rows {
  if (!state) return [['kiosk', 'no update-state.json: the kiosk has not run with this data folder yet']];
  return [
    ['state', state.note ? `${state.state} (${state.note})` : state.state],
    ['available', state.availableVersion ?? 'none'],
    ['downloaded', state.downloadedVersion ?? 'none'],
    ['last check', when(state.lastCheckAt)],
    ...(state.lastError ? [['last error', state.lastError]] : []),
    ...(state.retryAt ? [['next try', when(state.retryAt)]] : []),
    ...(state.failedVersion ? [['failed version', `${state.failedVersion} (skipped; kioskctl update rollback)`]] : []),
  ];
}

function previousRow(dataDir: string): Rows {
  const previous = readKeptInstaller(updateFiles(dataDir).previousDir);
  return [['rollback to', previous ? `${previous.version} (${previous.file})` : 'nothing kept yet']];
}

/** The running version: the kiosk's own word when it wrote one, else this install's. */
export function runningVersion(dataDir: string, installedVersion: string): string {
  return readUpdateState(dataDir)?.currentVersion ?? installedVersion;
}

export function updateStatusReport(dataDir: string, config: KioskConfig, installedVersion: string): UpdateReport {
  const state = readUpdateState(dataDir);
  const version = state?.currentVersion ?? installedVersion;
  return { rows: [...settingsRows(config, version), ...kioskRows(state), ...previousRow(dataDir)], ok: true };
}

function offered(feedVersion: string, running: string): string {
  const order = compareVersions(feedVersion, running);
  if (order > 0) return `${feedVersion} (newer)`;
  return order === 0 ? `${feedVersion} (this version)` : `${feedVersion} (older: not taken)`;
}

/** Reads the feed now, as the kiosk would (no Electron needed), beside what the kiosk has downloaded. */
export async function updateCheckReport(dataDir: string, config: KioskConfig, installedVersion: string): Promise<UpdateReport> {
  const state = readUpdateState(dataDir);
  const version = state?.currentVersion ?? installedVersion;
  const rows = settingsRows(config, version);
  const downloaded: Rows = [['downloaded', state?.downloadedVersion ?? 'none']];
  const { feedUrl, channel } = config.update;
  if (feedUrl === null) return { rows: [...rows, ...downloaded], ok: true };
  try {
    const { url, release } = await readFeed(feedUrl, channel);
    const staged = release.stagingPercentage === undefined ? 'all kiosks' : `${release.stagingPercentage}% of kiosks`;
    return {
      rows: [...rows, ['feed file', url], ['available', offered(release.version, version)], ['rollout', staged], ...downloaded],
      ok: true,
    };
  } catch (error) {
    if (!(error instanceof FeedError)) throw error;
    return { rows: [...rows, ['available', `unknown: ${error.message}`], ...downloaded], ok: false };
  }
}
