import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TestSandbox } from './testing.test-support.ts';

/** The data folder itself; state across restarts is tested through the client (test/contract/contract-persistence.test.ts). */

describe('the data folder', () => {
  it('makes new credentials for a new folder', async () => {
    const [one, other] = await Promise.all([TestSandbox.start(), TestSandbox.start()]);
    try {
      expect(one.credentials.api_key).not.toBe(one.credentials.access_token);
      expectNoOverlap(Object.values(other.credentials), Object.values(one.credentials));
    } finally {
      await Promise.all([one.stop(), other.stop()]);
    }
  });

  it('refuses to start on a state file it cannot read, leaving the file as it was', async () => {
    const other = await TestSandbox.start();
    await other.stop({ keepData: true });
    const file = path.join(other.dataDir, 'state.json');
    await fs.writeFile(file, '{"version": 99}');
    await expect(TestSandbox.start(other.dataDir)).rejects.toThrow(/version 99/);
    expect(await fs.readFile(file, 'utf8')).toBe('{"version": 99}');
    await fs.rm(other.dataDir, { recursive: true, force: true });
  });
});

function expectNoOverlap(left: string[], right: string[]) {
  expect(left.filter((value) => right.includes(value))).toEqual([]);
}
