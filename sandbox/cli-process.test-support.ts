import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const cliPath = fileURLToPath(new URL('./cli.node.ts', import.meta.url));
const READY = /^Loyalty sandbox listening on (http:\/\/127\.0\.0\.1:\d+\/api)$/m;

/**
 * Test support: the sandbox CLI as its own process, and temp folders. Whatever a test starts or
 * makes is killed and removed after it.
 */
export function cliHarness() {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function tempDir() {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'loyalty-sandbox-cli-'));
    cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
    return dir;
  }

  /** `node --import tsx` keeps the CLI one process, so a kill hits the server. */
  function runCli(args: string[]) {
    const child = spawn(process.execPath, ['--import', 'tsx', cliPath, ...args], { cwd: repoRoot });
    cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const ready = new Promise<string>((resolve, reject) => {
      child.stdout.on('data', () => {
        const match = READY.exec(stdout);
        if (match?.[1]) resolve(match[1]);
      });
      void exited.then((code) => reject(new Error(`CLI exited (${code}) before it was ready:\n${stderr}`)));
    });
    ready.catch(() => undefined); // Tests that expect an early exit never await it.
    return { child, ready, exited, output: () => ({ stdout, stderr }) };
  }

  return { tempDir, runCli, onCleanup: (cleanup: () => Promise<void>) => cleanups.push(cleanup) };
}
