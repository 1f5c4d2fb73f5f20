import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSandbox } from './testing.test-support.ts';

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await TestSandbox.start();
});
afterAll(() => sandbox.stop());

describe('restarting on the same data folder', () => {
  it('keeps state, credentials and the clock offset; rewrites the manifest with the new address', async () => {
    const credentials = { ...sandbox.credentials };
    const firstBaseUrl = sandbox.baseUrl;
    const created = await sandbox.call('createVoucher', {
      body: { promotion_uuid: sandbox.manifest.promotions[1]?.uuid, code: 'PERSIST1' },
    });
    await sandbox.call('advanceClock', { body: { advance_seconds: 3 * 24 * 3600 } });
    const lock = await sandbox.call('lockVoucher', { params: { voucher_uuid: created.body.data.uuid } });
    await sandbox.call('createContact', { body: { email: 'nieuw.lid@example.nl' } });

    await sandbox.restart();

    expect(sandbox.credentials).toEqual(credentials);
    expect(sandbox.baseUrl).not.toBe(firstBaseUrl);
    const manifest = JSON.parse(await fs.readFile(path.join(sandbox.dataDir, 'sandbox.json'), 'utf8'));
    expect(manifest).toEqual(sandbox.manifest);
    expect(manifest.base_url).toBe(sandbox.baseUrl);
    expect(manifest.contacts.map((contact: { email: string }) => contact.email)).toContain('nieuw.lid@example.nl');

    const found = await sandbox.call('findVoucher', { query: { code: 'PERSIST1' } });
    expect(found.body.data.status).toBe('LOCKED');
    const released = await sandbox.call('releaseVoucher', {
      params: { voucher_uuid: created.body.data.uuid },
      body: { release_key: lock.body.data.lock.release_key },
    });
    expect(released.status).toBe(200);
    // Seeded to expire two days after seeding: only the kept clock offset makes it EXPIRED now.
    const expiring = await sandbox.call('findVoucher', { query: { code: 'KRT5XP2N' } });
    expect(expiring.body.data.status).toBe('EXPIRED');
  });

  it('leaves a state file that parses and no temp file behind', async () => {
    const files = await fs.readdir(sandbox.dataDir);
    expect(files.sort()).toEqual(['sandbox.json', 'state.json']);
    const state = JSON.parse(await fs.readFile(path.join(sandbox.dataDir, 'state.json'), 'utf8'));
    expect(state.vouchers.some((voucher: { code: string }) => voucher.code === 'PERSIST1')).toBe(true);
  });

  it('makes new credentials for a new folder', async () => {
    const other = await TestSandbox.start();
    try {
      expect(other.credentials.api_key).not.toBe(sandbox.credentials.api_key);
      expect(sandbox.credentials.api_key).not.toBe(sandbox.credentials.access_token);
      expectNoOverlap(Object.values(other.credentials), Object.values(sandbox.credentials));
    } finally {
      await other.stop();
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
