import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UpdateChannel } from '../../common/update-state.std.ts';
import { channelFileName } from './update-policy.std.ts';

export interface FeedRelease {
  version: string;
  /** The installer's bytes, served at /<fileName>. */
  payload: Buffer;
  /** Published in the yml; a lie here is a checksum the download must refuse. */
  sha512?: string;
  stagingPercentage?: number;
}

/** The sha512 electron-builder writes into latest*.yml: base64 of the file's digest. */
export function sha512Of(payload: Buffer): string {
  return crypto.createHash('sha512').update(payload).digest('base64');
}

/**
 * A real update feed on 127.0.0.1, laid out as electron-builder publishes one for the generic
 * provider: `<channel>-linux.yml` beside the AppImage it names.
 */
export async function startUpdateFeed(channel: UpdateChannel = 'stable') {
  // The file electron-updater asks for on this machine: latest-linux.yml on x64 Linux.
  const channelFile = channelFileName(channel, 'linux', process.arch);
  let release: FeedRelease | null = null;
  /** Served instead of the release's yml when set: a broken feed. */
  let raw: string | null = null;
  /** Where the channel file redirects when set; a request that came by redirect (`?redirected`) is served. */
  let redirect: string | null = null;
  const requests: string[] = [];
  const fileName = () => `Loyalty-Kiosk-${release?.version}.AppImage`;
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://feed').pathname;
    requests.push(pathname);
    if (redirect && pathname === `/${channelFile}` && !request.url?.includes('?redirected')) {
      response.writeHead(302, { location: redirect }).end();
    } else if (release && pathname === `/${channelFile}`) {
      response.setHeader('content-type', 'text/yaml');
      response.end(raw ?? channelYml(release, fileName()));
    } else if (release && pathname === `/${fileName()}`) {
      response.setHeader('content-length', release.payload.length);
      response.end(release.payload);
    } else {
      response.statusCode = 404;
      response.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    publish(next: FeedRelease) {
      release = next;
      raw = null;
    },
    /** The channel file's URL on this feed. */
    channelFileUrl: `http://127.0.0.1:${port}/${channelFile}`,
    /** Answers the channel file with a redirect to `to` (null: serve it again). */
    redirectTo(to: string | null) {
      redirect = to;
    },
    /** Serves `text` as the channel file (for the release published before). */
    publishRaw(text: string) {
      raw = text;
    },
    downloads: () => requests.filter((request) => request.endsWith('.AppImage')).length,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function channelYml(release: FeedRelease, fileName: string): string {
  const sha512 = release.sha512 ?? sha512Of(release.payload);
  return [
    `version: ${release.version}`,
    'files:',
    `  - url: ${fileName}`,
    `    sha512: ${sha512}`,
    `    size: ${release.payload.length}`,
    `path: ${fileName}`,
    `sha512: ${sha512}`,
    `releaseDate: '2026-11-24T03:00:00.000Z'`,
    ...(release.stagingPercentage === undefined ? [] : [`stagingPercentage: ${release.stagingPercentage}`]),
    '',
  ].join('\n');
}
