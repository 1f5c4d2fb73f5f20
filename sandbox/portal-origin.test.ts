import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from './sandbox.node.ts';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, portalPort: 0, dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-portal-')) });
});
afterAll(() => sandbox.close());

describe('hosted session pages on an origin of their own (portalPort)', () => {
  it('points session urls at the portal origin, which serves the pages and nothing of the API', async () => {
    const apiOrigin = new URL(sandbox.baseUrl).origin;
    expect(sandbox.portalOrigin).not.toBe(apiOrigin);
    const created = await fetch(`${sandbox.baseUrl}/portal-sessions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${sandbox.manifest.credentials.api_key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ shop_uuid: sandbox.manifest.shops[0]!.uuid }),
    });
    expect(created.status).toBe(201);
    const { data } = (await created.json()) as { data: { url: string } };
    expect(new URL(data.url).origin).toBe(sandbox.portalOrigin);

    const page = await fetch(data.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const api = await fetch(`${sandbox.portalOrigin}/api/vouchers?limit=1`, { headers: { Authorization: `Bearer ${sandbox.manifest.credentials.api_key}` } });
    expect(api.status).toBe(404);
  });
});
