import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLoyaltyClient, type LoyaltyClient } from '../../main/loyalty/client.node.ts';
import type { SandboxManifest } from '../../sandbox/sandbox.node.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const cliPath = fileURLToPath(new URL('../../sandbox/cli.node.ts', import.meta.url));
const READY = /^Loyalty sandbox listening on (\S+)$/m;

export interface SandboxProcess {
  baseUrl: string;
  manifest: SandboxManifest;
  /** The kiosk's client with its default options and the sandbox's API key. */
  client: LoyaltyClient;
  close(): Promise<void>;
}

/**
 * The sandbox CLI in its own process on a free port and a fresh folder under os.tmpdir(), so the
 * server does not share the bench's event loop. `node --import tsx` keeps it one process, so
 * SIGTERM reaches the server itself.
 */
export async function spawnSandbox(): Promise<SandboxProcess> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'loyalty-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', cliPath, '--port', '0', '--data', dataDir], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await fs.rm(dataDir, { recursive: true, force: true });
  };

  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const url = READY.exec(stdout)?.[1];
        if (url) resolve(url);
      });
      void exited.then(() => reject(new Error(`The sandbox exited before it was ready:\n${stderr}`)));
    });
    // The CLI writes sandbox.json before it reports ready.
    const manifest = JSON.parse(await fs.readFile(path.join(dataDir, 'sandbox.json'), 'utf8')) as SandboxManifest;
    const apiKey = manifest.credentials.api_key;
    const client = createLoyaltyClient({ baseUrl, credentials: async () => ({ apiKey }) });
    return { baseUrl, manifest, client, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * One fresh voucher of the sandbox's first promotion and contact per step of `counts` (warm-up
 * included): redeeming uses a voucher up. Created all at once: queued writes share an fsync in the
 * sandbox, which keeps the setup short.
 */
export async function vouchersToRedeem({ client, manifest }: SandboxProcess, counts: { warmup: number; iterations: number }) {
  const { promotions, contacts } = manifest;
  return Promise.all(
    Array.from({ length: counts.warmup + counts.iterations }, () => client.createVoucher({ promotion_uuid: promotions[0]!.uuid, contact_uuid: contacts[0]!.uuid })),
  );
}
