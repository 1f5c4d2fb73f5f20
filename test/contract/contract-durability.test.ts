import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliHarness } from '../../sandbox/cli-process.test-support.ts';
import type { SandboxManifest } from '../../sandbox/sandbox.node.ts';
import type { SandboxState } from '../../sandbox/state.std.ts';
import { TestSandbox } from '../../sandbox/testing.test-support.ts';
import { clientOf } from './contract.test-support.ts';

/** kill -9 of the sandbox process in the middle of a burst of writes made through the client. */

const { tempDir, runCli, onCleanup } = cliHarness();

describe('a sandbox killed with SIGKILL', () => {
  it('loses no voucher whose creation was acknowledged, and its state still loads', async () => {
    const dir = await tempDir();
    const acknowledged: string[] = [];
    for (const killAfter of [5, 40]) {
      const cli = runCli(['--port', '0', '--data', dir]);
      const baseUrl = await cli.ready;
      const manifest = JSON.parse(await fs.readFile(path.join(dir, 'sandbox.json'), 'utf8')) as SandboxManifest;
      const client = clientOf({ ...manifest, baseUrl });
      const create = async (code: string) => {
        await client.createVoucher({ promotion_uuid: manifest.promotions[0]!.uuid, code });
        acknowledged.push(code);
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

    const state = JSON.parse(await fs.readFile(path.join(dir, 'state.json'), 'utf8')) as SandboxState;
    const stored = new Set(state.vouchers.map((voucher) => voucher.code));
    expect(acknowledged.filter((code) => !stored.has(code))).toEqual([]);
    const restarted = await TestSandbox.start(dir);
    onCleanup(() => restarted.stop({ keepData: true }));
    const client = clientOf(restarted);
    for (const code of acknowledged) expect((await client.findVoucher({ code })).data.code).toBe(code);
  });
});
