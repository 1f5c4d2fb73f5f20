import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { writeFileDurably } from '../base/durable-file.node.ts';
import { generateCredentials } from './credentials.std.ts';
import { seedDemoState } from './demo-data.std.ts';
import { DurableStore } from './durable-store.node.ts';
import { createRequestListener, createSessionPageListener, type SandboxLogger } from './http-server.node.ts';
import { buildManifest, type SandboxManifest } from './manifest.std.ts';
import { floorToSecond } from './timestamps.std.ts';

export type { SandboxLogger } from './http-server.node.ts';
export type { SandboxManifest } from './manifest.std.ts';
export { SandboxStateError } from './durable-store.node.ts';

export interface SandboxOptions {
  /** Where `state.json` and `sandbox.json` live; created when missing, seeded when empty. */
  dataDir: string;
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /**
   * Serve the hosted session pages on a port of their own (0: a free one), so they have their
   * own origin as on the real platform. Left out: the pages share the API's origin.
   */
  portalPort?: number;
  logger?: SandboxLogger;
}

export interface RunningSandbox {
  /** `http://127.0.0.1:<port>/api`: every spec path is appended to it. */
  baseUrl: string;
  /** The origin of the hosted session pages (the API's own unless `portalPort` was given). */
  portalOrigin: string;
  manifestPath: string;
  manifest: SandboxManifest;
  /** Stops listening, ends open connections and waits for the last write to reach the disk. */
  close(): Promise<void>;
}

const quietLogger: SandboxLogger = { info() {}, error() {} };

/**
 * The loyalty sandbox, in-process: the kiosk's demo mode, the tests and the CLI all start it
 * here. It answers like the platform under `baseUrl` and writes `sandbox.json` on every start.
 */
export async function startSandbox({
  dataDir,
  port = 4010,
  host = '127.0.0.1',
  portalPort,
  logger = quietLogger,
}: SandboxOptions): Promise<RunningSandbox> {
  const store = await DurableStore.open(dataDir, () =>
    seedDemoState(floorToSecond(Date.now()), generateCredentials()),
  );
  const servers = [await listen(port, host)];
  const origin = serverAddressOf(servers[0]!, host);
  const baseUrl = `${origin}/api`;
  let portalOrigin = origin;
  if (portalPort !== undefined) {
    const portalServer = await listen(portalPort, host);
    servers.push(portalServer);
    portalOrigin = serverAddressOf(portalServer, host);
    portalServer.on('request', createSessionPageListener({ store, origin: portalOrigin, logger }));
  }
  servers[0]!.on('request', createRequestListener({ store, origin, portalOrigin, logger }));

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      ),
    ).then(() => store.durable()));

  const manifestPath = path.join(dataDir, 'sandbox.json');
  const manifest = buildManifest(store.state, baseUrl);
  try {
    await writeFileDurably(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  } catch (error) {
    await close();
    throw error;
  }
  logger.info('Loyalty sandbox started', { baseUrl, portalOrigin, dataDir });
  return { baseUrl, portalOrigin, manifestPath, manifest, close };
}

async function listen(port: number, host: string): Promise<http.Server> {
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

/** The http://host:port a listening server answers on (not a URL's origin: a server's own address). */
function serverAddressOf(server: http.Server, host: string): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`;
}
