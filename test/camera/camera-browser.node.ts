import type { Browser, BrowserContext, Page } from 'playwright-core';
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

/** Keeps every stream the context's pages open (getUserMedia), so a test can check the app ended its tracks. */
export async function recordCameraStreams(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const streams: MediaStream[] = [];
    (window as unknown as { cameraStreams: MediaStream[] }).cameraStreams = streams;
    const open = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await open(constraints);
      streams.push(stream);
      return stream;
    };
  });
}

/** The state of every track of every camera stream the page opened (recordCameraStreams). */
export const cameraTrackStates = (page: Page) =>
  page.evaluate(() => (window as unknown as { cameraStreams: MediaStream[] }).cameraStreams.flatMap((stream) => stream.getTracks().map((track) => track.readyState)));
