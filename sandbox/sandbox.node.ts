import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { writeFileDurably } from '../base/durable-file.node.ts';
import { generateCredentials } from './credentials.std.ts';
import { seedDemoState } from './demo-data.std.ts';
import { DurableStore } from './durable-store.node.ts';
import { createRequestListener, type SandboxLogger } from './http-server.node.ts';
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
  logger?: SandboxLogger;
}

export interface RunningSandbox {
  /** `http://127.0.0.1:<port>/api`: every spec path is appended to it. */
  baseUrl: string;
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
  logger = quietLogger,
}: SandboxOptions): Promise<RunningSandbox> {
  const store = await DurableStore.open(dataDir, () =>
    seedDemoState(floorToSecond(Date.now()), generateCredentials()),
  );
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`;
  const baseUrl = `${origin}/api`;
  server.on('request', createRequestListener({ store, origin, logger }));

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }).then(() => store.durable()));

  const manifestPath = path.join(dataDir, 'sandbox.json');
  const manifest = buildManifest(store.state, baseUrl);
  try {
    await writeFileDurably(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  } catch (error) {
    await close();
    throw error;
  }
  logger.info('Loyalty sandbox started', { baseUrl, dataDir });
  return { baseUrl, manifestPath, manifest, close };
}
