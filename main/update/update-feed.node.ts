import { load } from 'js-yaml';
import { z } from 'zod';
import { channelFileName } from './update-policy.std.ts';

/** What electron-builder writes into latest*.yml, as far as the kiosk's tools read it. */
export const FeedRelease = z.object({
  version: z.string().min(1),
  files: z.array(z.object({ url: z.string(), sha512: z.string(), size: z.number().optional() })).min(1),
  releaseDate: z.string().optional(),
  stagingPercentage: z.number().optional(),
});
export type FeedRelease = z.infer<typeof FeedRelease>;

/** A slow feed is a finding, not a reason for kioskctl or doctor to hang. */
const FEED_TIMEOUT_MS = 8_000;

export interface FeedAnswer {
  /** The channel file that was read, as a full URL. */
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
  channel: 'stable' | 'beta',
  { platform = process.platform, arch = process.arch, timeoutMs = FEED_TIMEOUT_MS }: { platform?: NodeJS.Platform; arch?: string; timeoutMs?: number } = {},
): Promise<FeedAnswer> {
  const base = feedUrl.endsWith('/') ? feedUrl : `${feedUrl}/`;
  const url = new URL(channelFileName(channel, platform, arch), base).href;
  let text: string;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { 'cache-control': 'no-cache' } });
    if (!response.ok) throw new FeedError(`${url} answered ${response.status}`);
    text = await response.text();
  } catch (error) {
    if (error instanceof FeedError) throw error;
    throw new FeedError(`${url} is unreachable: ${error instanceof Error ? error.message : String(error)}`);
  }
  let parsed: unknown;
  try {
    parsed = load(text);
  } catch {
    throw new FeedError(`${url} is not YAML`);
  }
  const release = FeedRelease.safeParse(parsed);
  if (!release.success) throw new FeedError(`${url} is not an electron-builder update file (it needs a version and files)`);
  return { url, release: release.data };
}
