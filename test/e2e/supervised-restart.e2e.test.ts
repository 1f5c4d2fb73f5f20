import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import NodeWebSocket from 'ws';
import { BROWSER_BRIDGE_PATH } from '../../common/browser-bridge-protocol.std.ts';
import { ConfigStore } from '../../main/config/config-store.node.ts';
import { createLoyaltyClient, type LoyaltyClient } from '../../main/loyalty/client.node.ts';
import { silentLogger } from '../../main/logging/logger.std.ts';
import { KeytarSecretStore, SECRET_NAMES } from '../../main/secrets/secret-store.node.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/sandbox.node.ts';
import { kioskEvents } from '../support/kiosk-journey.node.ts';
import { restartPolicyOf, supervise, type Supervised } from '../support/unit-supervisor.node.ts';
import { dataFiles } from '../../main/paths/data-files.node.ts';

/**
 * The browser-host deployment as its shipped unit runs it, under a real `systemd-run --user` when
 * the machine has a user systemd, else under the test supervisor with the unit's own Restart=,
 * RestartSec= and start limit. The host is SIGKILLed holding a voucher lock; the supervisor must
 * start it again, and the new process must settle the lock at the platform (a real sandbox over
 * HTTP) from its journal. Run under test/with-keyring.sh.
 */

const UNIT = path.resolve('build/linux/loyalty-kiosk-browser.service');

function journalEntries(dataDir: string): unknown[] {
  const file = dataFiles(dataDir).voucherLocks;
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { entries: unknown[] }).entries : [];
}

/** Every "Kiosk UI" address the supervised runs printed so far, oldest first. */
function printedUrls(outputFile: string): string[] {
  const text = fs.existsSync(outputFile) ? fs.readFileSync(outputFile, 'utf8') : '';
  return [...text.matchAll(/^Kiosk UI: (\S+)$/gm)].map((match) => match[1]!);
}

/** The kiosk's bridge from Node, as its page would use it. */
async function bridgeCall(url: string, call: string, input: unknown): Promise<unknown> {
  const { origin, searchParams } = new URL(url);
  const socket = new NodeWebSocket(`${origin.replace('http', 'ws')}${BROWSER_BRIDGE_PATH}?token=${searchParams.get('token')}`, { origin });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  socket.send(JSON.stringify({ id: 1, call, input }));
  const answer = await new Promise((resolve) => socket.once('message', (data) => resolve((JSON.parse(String(data)) as { result: unknown }).result)));
  socket.terminate();
  return answer;
}

describe('a killed browser host under its supervisor', () => {
  const keychainService = `loyalty-kiosk-e2e-supervised-${process.pid}`;
  const secrets = new KeytarSecretStore({ logger: silentLogger, service: keychainService });
  let sandbox: RunningSandbox;
  let admin: LoyaltyClient;
  let supervised: Supervised | undefined;

  beforeAll(async () => {
    sandbox = await startSandbox({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'supervised-platform-')), port: 0 });
    const { api_key, access_token, personal_access_token } = sandbox.manifest.credentials;
    await secrets.set('apiKey', api_key);
    await secrets.set('accessToken', access_token);
    await secrets.set('personalAccessToken', personal_access_token);
    admin = createLoyaltyClient({ baseUrl: sandbox.baseUrl, credentials: async () => ({ apiKey: api_key }) });
  });
  afterAll(async () => {
    await supervised?.stop();
    for (const name of SECRET_NAMES) await secrets.remove(name).catch(() => {});
    await sandbox?.close();
  });

  it('comes back after the unit\'s RestartSec, answers HTTP again, and settles the lock it held from its journal', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'supervised-kiosk-'));
    const config = new ConfigStore({ dataDir, logger: silentLogger });
    config.set('api.baseUrl', sandbox.baseUrl);
    config.set('api.shopUuid', sandbox.manifest.shops[0]!.uuid);
    const { promotions, contacts } = sandbox.manifest;
    const voucher = (await admin.createVoucher({ promotion_uuid: promotions[0]!.uuid, contact_uuid: contacts[0]!.uuid, total_redemptions_allowed: 1 })).data;

    const policy = restartPolicyOf(UNIT);
    const outputFile = path.join(dataDir, 'service-output.log');
    supervised = supervise(
      {
        command: process.execPath,
        // The unit's ExecStart (node --import tsx main/browser-host/cli.node.ts), on this test's data folder.
        args: ['--import', 'tsx', 'main/browser-host/cli.node.ts', '--no-open', '--port', '0', '--data', dataDir],
        cwd: process.cwd(),
        env: { KIOSK_KEYCHAIN_SERVICE: keychainService, DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS ?? '' },
        outputFile,
      },
      policy,
    );
    await expect.poll(() => printedUrls(outputFile).length, { timeout: 30_000 }).toBe(1);
    const [firstUrl] = printedUrls(outputFile);
    await expect(bridgeCall(firstUrl!, 'lockVoucher', { voucherUuid: voucher.uuid, code: voucher.code })).resolves.toMatchObject({ ok: true });
    expect((await admin.findVoucher({ code: voucher.code })).data.status).toBe('LOCKED');
    expect(journalEntries(dataDir)).toHaveLength(1);

    const firstPid = supervised.mainPid()!;
    process.kill(firstPid, 'SIGKILL');
    const killedAt = Date.now();
    await expect.poll(() => printedUrls(outputFile).length, { timeout: 30_000 }).toBe(2);
    // Restarted by the supervisor, not sooner than the unit's RestartSec.
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(policy.restartSec * 1_000);
    expect(supervised.mainPid()).not.toBe(firstPid);
    const secondUrl = printedUrls(outputFile)[1]!;
    expect((await fetch(secondUrl)).status).toBe(200);

    await expect.poll(() => journalEntries(dataDir), { timeout: 10_000 }).toEqual([]);
    expect((await admin.findVoucher({ code: voucher.code })).data).toMatchObject({ status: 'ACTIVE', times_redeemed: 0 });
    // The log line follows the journal's last write: waited for, not read at once.
    await expect.poll(() => kioskEvents(dataDir, 'voucher.locks_settled')[0]?.settled).toEqual([
      { voucherUuid: voucher.uuid, outcome: 'released' },
    ]);
    process.stdout.write(`supervised by ${supervised.by}\n`);
  }, 60_000);
});
