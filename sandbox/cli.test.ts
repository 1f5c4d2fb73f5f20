import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliHarness } from './cli-process.test-support.ts';

/** The CLI process; a kill -9 in a burst of writes is tested through the client (test/contract/contract-durability.test.ts). */

const { tempDir, runCli } = cliHarness();

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

  it('stops on a damaged state file with one line and exit code 78, never the content of the file', async () => {
    const dir = await tempDir();
    const secretLooking = 'demo-api-key-that-must-not-be-echoed';
    await fs.writeFile(path.join(dir, 'state.json'), `{"version": 1, "credentials": {"api_key": "${secretLooking}"`);
    const cli = runCli(['--port', '0', '--data', dir]);
    expect(await cli.exited).toBe(78);
    const { stderr } = cli.output();
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('could not start');
    expect(stderr).not.toContain(secretLooking);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a bad port with its usage', async () => {
    const cli = runCli(['--port', 'eighty']);
    expect(await cli.exited).toBe(2);
    expect(cli.output().stderr).toContain('Usage: tsx sandbox/cli.node.ts');
  });
});
