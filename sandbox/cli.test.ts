import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { TestSandbox } from './testing.test-support.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const cliPath = fileURLToPath(new URL('./cli.node.ts', import.meta.url));
const READY = /^Loyalty sandbox listening on (http:\/\/127\.0\.0\.1:\d+\/api)$/m;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function tempDir() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'loyalty-sandbox-cli-'));
  cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The CLI as its own process: `node --import tsx` keeps it one process, so a kill hits the server. */
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

describe('the sandbox CLI', () => {
  it('prints exactly its base_url line, writes the manifest and closes cleanly on SIGTERM and SIGINT', async () => {
    const dir = await tempDir();
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const cli = runCli(['--port', '0', '--data', dir]);
      const baseUrl = await cli.ready;
      expect(cli.output().stdout).toBe(`Loyalty sandbox listening on ${baseUrl}\n`);
      const manifest = JSON.parse(await fs.readFile(path.join(dir, 'sandbox.json'), 'utf8'));
      expect(manifest.base_url).toBe(baseUrl);
      const reply = await fetch(`${baseUrl}/reward-attributes`, {
        headers: { authorization: `Bearer ${manifest.credentials.api_key}` },
      });
      expect(reply.status).toBe(200);
      cli.child.kill(signal);
      expect(await cli.exited).toBe(0);
    }
  });

  it('refuses a bad port with its usage', async () => {
    const cli = runCli(['--port', 'eighty']);
    expect(await cli.exited).toBe(2);
    expect(cli.output().stderr).toContain('Usage: tsx sandbox/cli.node.ts');
  });

  it('loses no acknowledged voucher when killed with SIGKILL in the middle of a burst', async () => {
    const dir = await tempDir();
    const acknowledged: string[] = [];
    for (const killAfter of [5, 40]) {
      const cli = runCli(['--port', '0', '--data', dir]);
      const baseUrl = await cli.ready;
      const manifest = JSON.parse(await fs.readFile(path.join(dir, 'sandbox.json'), 'utf8'));
      const create = async (code: string) => {
        const reply = await fetch(`${baseUrl}/vouchers`, {
          method: 'POST',
          headers: { authorization: `Bearer ${manifest.credentials.api_key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ promotion_uuid: manifest.promotions[0].uuid, code }),
        });
        if (reply.status === 201) acknowledged.push(code);
      };
      // Eight requests in flight at all times; the kill lands while several are unanswered.
      const ackedBefore = acknowledged.length;
      const pending = new Set<Promise<void>>();
      for (let index = 0; acknowledged.length - ackedBefore < killAfter; index += 1) {
        const request: Promise<void> = create(`BURST${killAfter}X${index}`)
          .catch(() => undefined)
          .finally(() => pending.delete(request));
        pending.add(request);
        if (pending.size >= 8) await Promise.race(pending);
      }
      cli.child.kill('SIGKILL');
      await Promise.all(pending);
      expect(await cli.exited).toBeNull();
    }

    const state = JSON.parse(await fs.readFile(path.join(dir, 'state.json'), 'utf8'));
    const stored = new Set(state.vouchers.map((voucher: { code: string }) => voucher.code));
    expect(acknowledged.filter((code) => !stored.has(code))).toEqual([]);
    const restarted = await TestSandbox.start(dir);
    cleanups.push(() => restarted.stop({ keepData: true }));
    for (const code of acknowledged) {
      expect((await restarted.call('findVoucher', { query: { code } })).status).toBe(200);
    }
  });
});
