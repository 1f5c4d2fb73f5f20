import fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { contractSuite } from './contract.test-support.ts';

/** A fresh data folder: the manifest, and the demo records as the client reads them. */

const suite = contractSuite();

describe('a fresh data folder', () => {
  it('writes a manifest with the address, the credentials and the demo records', async () => {
    const manifest = JSON.parse(await fs.readFile(suite.sandbox.manifestPath, 'utf8'));
    expect(manifest).toEqual(suite.sandbox.manifest);
    expect(manifest.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(Object.keys(manifest.credentials).sort()).toEqual(['access_token', 'api_key', 'personal_access_token']);
    expect(manifest.shops.length).toBeGreaterThanOrEqual(2);
    expect(manifest.shops.map((shop: { name: string }) => shop.name)).toContain('Amsterdam Centraal');
    expect(manifest.contacts).toHaveLength(5);
    for (const contact of manifest.contacts) expect(contact.identifiers).toEqual([expect.stringMatching(/^\d{13}$/)]);
    expect(manifest.contacts.map((contact: { email: string }) => contact.email)).toContain('sanne.devries@example.nl');
    expect(manifest.unlinked_identifiers).toEqual([expect.stringMatching(/^\d{13}$/)]);
    expect(manifest.promotions).toHaveLength(3);
    expect(manifest.vouchers).toHaveLength(20);
    const { mode } = await fs.stat(suite.sandbox.manifestPath);
    expect(mode & 0o077).toBe(0);
  });

  it('seeds vouchers in every state the clock can produce, with and without a contact', async () => {
    const seeded = suite.sandbox.manifest.vouchers;
    const statuses = new Set(seeded.map((voucher) => voucher.status));
    expect([...statuses].sort()).toEqual(['ACTIVE', 'DEACTIVATED', 'EXPIRED', 'INACTIVE', 'REDEEMED']);
    expect(seeded.some((voucher) => voucher.status === 'ACTIVE' && voucher.contact_uuid === null)).toBe(true);
    expect(seeded.some((voucher) => voucher.status === 'ACTIVE' && voucher.contact_uuid !== null)).toBe(true);
    for (const voucher of seeded) expect(voucher.code).toMatch(/^[A-Z0-9]{6,12}$/);
    const listed = await suite.client.listVouchers({ limit: 500 });
    const liveStatus = Object.fromEntries(listed.data.map((voucher) => [voucher.uuid, voucher.status]));
    for (const voucher of seeded) expect(liveStatus[voucher.uuid]).toBe(voucher.status);
    const multiUse = await suite.client.findVoucher({ code: 'KOFFIE3X' });
    expect(multiUse.data.total_redemptions_allowed).toBe(3);
  });

  it('gives the promotions an image (served inline) and an emoji as media', async () => {
    const listed = await suite.client.listVouchers({ limit: 500 });
    const media = new Map<string, { type: string; value: string }>();
    for (const voucher of listed.data) {
      if (voucher.promotion.media) media.set(voucher.promotion.uuid, voucher.promotion.media);
    }
    const kinds = [...media.values()];
    expect(kinds.find((item) => item.type === 'image')?.value).toMatch(/^data:image\/svg\+xml,/);
    expect(kinds.find((item) => item.type === 'emoji')?.value).toBe('☕');
  });

  it('gives every contact a credit balance and every card to its contact', async () => {
    for (const contact of suite.sandbox.manifest.contacts) {
      const balance = await suite.client.getCreditBalance({ contact_uuid: contact.uuid });
      expect(balance.data.balance).toBeGreaterThan(0);
      const card = await suite.client.findContactIdentifier({ contact_identifier_value: contact.identifiers[0]! });
      expect(card.data.contact).toEqual({ uuid: contact.uuid, email: contact.email });
    }
  });

  it('defines eight reward attributes of varied types, among them a select with options', async () => {
    const { data } = await suite.client.listRewardAttributes();
    expect(data).toHaveLength(8);
    expect(new Set(data.map((attribute) => attribute.type)).size).toBeGreaterThanOrEqual(6);
    const select = data.find((attribute) => attribute.type === 'select');
    expect(select?.options.length).toBeGreaterThan(0);
  });
});
