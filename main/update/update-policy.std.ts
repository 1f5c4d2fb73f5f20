import { isWithinRange } from '../../common/local-time.std.ts';
import type { UpdateChannel } from '../../common/update-state.std.ts';

/** The kiosk's channel as electron-builder names its feed files: stable is `latest`. */
export function channelFileBase(channel: UpdateChannel): 'latest' | 'beta' {
  return channel === 'stable' ? 'latest' : 'beta';
}

/**
 * The feed file electron-updater asks for (its Provider's naming): `<base>-linux.yml` on x64
 * Linux, `-linux-<arch>` elsewhere on Linux, `-mac` on macOS, nothing on Windows.
 */
export function channelFileName(channel: UpdateChannel, platform: NodeJS.Platform, arch: string): string {
  const base = channelFileBase(channel);
  if (platform === 'linux') return `${base}-linux${arch === 'x64' ? '' : `-${arch}`}.yml`;
  return `${base}${platform === 'darwin' ? '-mac' : ''}.yml`;
}

export const FIRST_RETRY_MS = 60_000;

/** Backoff after failed checks or downloads: 1 min, doubling, never longer than the check interval. */
export function retryDelayMs(failures: number, checkIntervalMs: number, firstRetryMs = FIRST_RETRY_MS): number {
  return Math.min(firstRetryMs * 2 ** Math.max(0, failures - 1), checkIntervalMs);
}

/** Why a downloaded update may not be installed now, or null: install. */
export function installBlocker({ window, now, idle }: { window: string; now: Date; idle: boolean }): string | null {
  if (!isWithinRange(window, now)) return `waiting for the update window ${window}`;
  if (!idle) return 'waiting for the kiosk to be idle (attract screen, no voucher lock)';
  return null;
}

/**
 * Semver order for display (kioskctl, doctor): negative when `a` is older than `b`. A release
 * is newer than its own pre-releases. electron-updater itself decides what is installed.
 */
export function compareVersions(a: string, b: string): number {
  const [coreA = '', preA] = splitVersion(a);
  const [coreB = '', preB] = splitVersion(b);
  const numbersA = coreA.split('.').map(Number);
  const numbersB = coreB.split('.').map(Number);
  for (let index = 0; index < 3; index += 1) {
    const difference = (numbersA[index] ?? 0) - (numbersB[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  if (preA === preB) return 0;
  if (preA === undefined) return 1;
  if (preB === undefined) return -1;
  return preA.localeCompare(preB, 'en', { numeric: true });
}

function splitVersion(version: string): [string, string | undefined] {
  const plain = version.replace(/^v/, '').split('+')[0] ?? '';
  const dash = plain.indexOf('-');
  return dash < 0 ? [plain, undefined] : [plain.slice(0, dash), plain.slice(dash + 1)];
}
