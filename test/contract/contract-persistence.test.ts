import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contractSuite } from './contract.test-support.ts';

/** State across a restart on the same data folder, read back through the client. */

const suite = contractSuite();

describe('restarting on the same data folder', () => {
  it('keeps state, credentials and the clock offset; rewrites the manifest with the new address', async () => {
    const { sandbox } = suite;
    const credentials = { ...sandbox.credentials };
    const firstBaseUrl = sandbox.baseUrl;
    const created = await suite.client.createVoucher({ promotion_uuid: sandbox.manifest.promotions[1]!.uuid, code: 'PERSIST1' });
    await sandbox.call('advanceClock', { body: { advance_seconds: 3 * 24 * 3600 } });
    const lock = await suite.client.lockVoucher({ voucher_uuid: created.data.uuid });
    await suite.client.createContact({ email: 'nieuw.lid@example.nl' });

    await suite.restart();

    expect(sandbox.credentials).toEqual(credentials);
    expect(sandbox.baseUrl).not.toBe(firstBaseUrl);
    const manifest = JSON.parse(await fs.readFile(path.join(sandbox.dataDir, 'sandbox.json'), 'utf8'));
    expect(manifest).toEqual(sandbox.manifest);
    expect(manifest.base_url).toBe(sandbox.baseUrl);
    expect(manifest.contacts.map((contact: { email: string }) => contact.email)).toContain('nieuw.lid@example.nl');

    expect((await suite.client.findVoucher({ code: 'PERSIST1' })).data.status).toBe('LOCKED');
    const released = await suite.client.releaseVoucher({
      voucher_uuid: created.data.uuid,
      release_key: lock.data.lock.release_key,
    });
    expect(released.data.voucher.status).toBe('ACTIVE');
    // Seeded to expire two days after seeding: only the kept clock offset makes it EXPIRED now.
    expect((await suite.client.findVoucher({ code: 'KRT5XP2N' })).data.status).toBe('EXPIRED');
  });

  it('leaves a state file that parses and no temp file behind', async () => {
    expect((await fs.readdir(suite.sandbox.dataDir)).sort()).toEqual(['sandbox.json', 'state.json']);
    const state = await suite.sandbox.storedState();
    expect(state.vouchers.some((voucher) => voucher.code === 'PERSIST1')).toBe(true);
  });
});
