import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../sandbox/sandbox.node.ts';
import { BridgeConnection } from './bridge/dispatcher.std.ts';
import { startKioskServices, type KioskServices } from './kiosk-services.node.ts';
import { silentLogger } from './logging/logger.std.ts';
import { sealSetupCard } from './manager/setup-card.node.ts';
import { setupCode } from './manager/setup-code.node.ts';
import { KeytarSecretStore, SECRET_NAMES } from './secrets/secret-store.node.ts';

/** #34 §2: a fresh kiosk connected from a setup card, through main's own call, against a real platform. */
describe('connecting a fresh kiosk from a setup card', () => {
  const keychainService = `loyalty-kiosk-test-${crypto.randomUUID()}`;
  const secrets = new KeytarSecretStore({ logger: silentLogger, service: keychainService });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'setup-card-kiosk-'));
  const wizard = new BridgeConnection('window');
  let platform: RunningSandbox;
  let services: KioskServices;
  const card = (apiKey: string) => sealSetupCard({ baseUrl: platform.baseUrl, shopUuid: platform.manifest.shops[0]!.uuid, apiKey }, setupCode(dataDir));
  const connect = (text: string) => services.dispatch('connectWithSetupCard', { card: text }, wizard);

  beforeAll(async () => {
    platform = await startSandbox({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'setup-card-platform-')), port: 0 });
    services = await startKioskServices({ dataDir, version: 'test', keychainService });
    await expect(services.dispatch('startSetup', { code: setupCode(dataDir) }, wizard)).resolves.toMatchObject({ ok: true });
  });

  afterAll(async () => {
    await services?.close();
    await platform?.close();
    for (const name of SECRET_NAMES) await secrets.remove(name).catch(() => {});
  });

  it('saves nothing when the card is not this kiosk\'s, or its key does not work: says why', async () => {
    await expect(connect('not a card')).resolves.toMatchObject({ ok: false, error: { code: 'validation', message: 'this is not a setup card' } });
    const wrongKey = await connect(card('not-the-key'));
    expect(wrongKey).toMatchObject({ ok: true, value: { check: { ok: false }, settings: null } });
    expect(services.config.isDemo()).toBe(true);
    await expect(secrets.get('apiKey')).resolves.toBeNull();
  });

  it('saves the address, the shop and the key from a card that works, as the wizard\'s Save would', async () => {
    const { api_key } = platform.manifest.credentials;
    const connected = await connect(card(api_key));
    expect(connected).toMatchObject({ ok: true, value: { check: { ok: true }, settings: { demo: false, secrets: { stored: { apiKey: true } } } } });
    expect(services.config.get().api).toMatchObject({ baseUrl: platform.baseUrl, shopUuid: platform.manifest.shops[0]!.uuid });
    await expect(secrets.get('apiKey')).resolves.toBe(api_key);
    // Marked: left before a PIN, the wizard's change is undone (console-gate's own tests).
    expect(services.config.get().manager.setupUnfinished).toBe(true);
  });

  it('opens no card once the kiosk has a PIN', async () => {
    await expect(services.dispatch('setManagerPin', { pin: '4711' }, wizard)).resolves.toMatchObject({ ok: true });
    await expect(connect(card(platform.manifest.credentials.api_key))).resolves.toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringContaining('this one has a manager PIN') } });
  });
});
