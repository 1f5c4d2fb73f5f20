import { load } from 'js-yaml';
import { z } from 'zod';
import type { UpdateChannel } from '../../common/update-state.std.ts';
import { channelFileName } from './update-policy.std.ts';

/** What electron-builder writes into latest*.yml, as far as the kiosk's tools read it. */
/** Semantic Versioning 2.0.0, as electron-builder writes it: a feed's anything else is refused. */
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

export const FeedRelease = z.object({
  version: z.string().max(64).regex(SEMVER),
  files: z.array(z.object({ url: z.string(), sha512: z.string(), size: z.number().optional() })).min(1),
  releaseDate: z.string().optional(),
  stagingPercentage: z.number().optional(),
});
export type FeedRelease = z.infer<typeof FeedRelease>;

/** A slow feed is a finding, not a reason for kioskctl or doctor to hang. */
const FEED_TIMEOUT_MS = 8_000;
/** Redirects followed within the feed's own origin; more is a loop. */
const MAX_REDIRECTS = 5;

export interface FeedAnswer {
  /** The channel file that was read, as a full URL: where the answer came from, after any redirect. */
  url: string;
  release: FeedRelease;
}

export class FeedError extends Error {}

/**
 * Reads the feed's channel file for this platform (latest-linux.yml, beta.yml, …) without
 * Electron, the way electron-updater would find it: for kioskctl and doctor.
 */
export async function readFeed(
  feedUrl: string,
  channel: UpdateChannel,
  { platform = process.platform, arch = process.arch, timeoutMs = FEED_TIMEOUT_MS }: { platform?: NodeJS.Platform; arch?: string; timeoutMs?: number } = {},
): Promise<FeedAnswer> {
  const base = feedUrl.endsWith('/') ? feedUrl : `${feedUrl}/`;
  const url = new URL(channelFileName(channel, platform, arch), base).href;
  const { text, from } = await fetchWithinOrigin(url, timeoutMs);
  let parsed: unknown;
  try {
    parsed = load(text);
  } catch {
    throw new FeedError(`${from} is not YAML`);
  }
  const release = FeedRelease.safeParse(parsed);
  if (!release.success) throw new FeedError(`${from} is not an electron-builder update file (it needs a semver version and files)`);
  return { url: from, release: release.data };
}

/**
 * The body at `url`, following redirects only within its origin: a feed that sends the kiosk
 * elsewhere is refused, not read, and what was read is reported with the URL it came from.
 */
async function fetchWithinOrigin(url: string, timeoutMs: number): Promise<{ text: string; from: string }> {
  const signal = AbortSignal.timeout(timeoutMs);
  let at = url;
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const response = await fetch(at, { signal, redirect: 'manual', headers: { 'cache-control': 'no-cache' } });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) {
        if (!response.ok) throw new FeedError(`${at} answered ${response.status}`);
        return { text: await response.text(), from: at };
      }
      const next = new URL(location, at);
      if (next.origin !== new URL(url).origin) throw new FeedError(`${at} redirects to another origin (${next.origin}): refused`);
      at = next.href;
    }
  } catch (error) {
    if (error instanceof FeedError) throw error;
    throw new FeedError(`${at} is unreachable: ${error instanceof Error ? error.message : String(error)}`);
  }
  throw new FeedError(`${url} redirects more than ${MAX_REDIRECTS} times`);
}
