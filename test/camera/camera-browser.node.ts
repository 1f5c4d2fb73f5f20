import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium } from '../support/chromium.node.ts';

export type FakeCamera = { video: string } | 'none';

/**
 * Chromium with a fake camera that plays `video` (a .y4m), or with no camera at all. Camera
 * permission is per context (grantPermissions), so one browser serves both granted and denied pages.
 */
export function launchCameraChromium(camera: FakeCamera): Promise<Browser> {
  const args =
    camera === 'none'
      ? ['--use-fake-device-for-media-stream=device-count=0']
      : ['--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${camera.video}`];
  return launchChromium({ args });
}

const isLoopback = (url: string) => /^(data|blob):/.test(url) || new URL(url).hostname === '127.0.0.1';

/**
 * Records every URL the context's pages and workers request; anything not on loopback is
 * recorded and then aborted, so a kiosk test can never quietly depend on the internet.
 */
export async function recordRequests(context: BrowserContext): Promise<string[]> {
  const urls: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    urls.push(url);
    return isLoopback(url) ? route.continue() : route.abort('blockedbyclient');
  });
  return urls;
}
