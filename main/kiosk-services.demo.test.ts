import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type RunningSandbox } from '../sandbox/sandbox.node.ts';
import type { KioskSettingsView } from '../common/contract.std.ts';
import { startKioskServices, type KioskServices } from './kiosk-services.node.ts';
import { KeytarSecretStore, SECRET_NAMES } from './secrets/secret-store.node.ts';
import { silentLogger } from './logging/logger.std.ts';
import { BridgeConnection } from './bridge/dispatcher.std.ts';

/**
 * Demo mode is what the config says now: a demo kiosk that is connected (the wizard, kioskctl)
 * stops showing DEMO and talks to the platform at once; sent back to demo, it starts its sandbox.
 */
const testConnection = new BridgeConnection('test');

/** A card of the demo data the kiosk's own sandbox wrote. */
const demoCard = (services: KioskServices): string =>
  JSON.parse(fs.readFileSync(services.sandbox!.manifestPath, 'utf8')).contacts[0].identifiers[0];

describe('demo mode follows the config while the kiosk runs', () => {
  const keychainService = `loyalty-kiosk-test-${crypto.randomUUID()}`;
  const secrets = new KeytarSecretStore({ logger: silentLogger, service: keychainService });
  let platform: RunningSandbox;
  let services: KioskServices;
  const pushed: KioskSettingsView[] = [];

  beforeAll(async () => {
    platform = await startSandbox({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'demo-switch-platform-')), port: 0 });
    await secrets.set('apiKey', platform.manifest.credentials.api_key);
    services = await startKioskServices({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'demo-switch-kiosk-')), version: 'test', keychainService });
    services.events.subscribe((event, payload) => event === 'settingsChanged' && pushed.push(payload as KioskSettingsView));
  });

  afterAll(async () => {
    await services?.close();
    await platform?.close();
    for (const name of SECRET_NAMES) await secrets.remove(name).catch(() => {});
  });

  const appInfo = () => services.dispatch('getAppInfo', {}, testConnection);

  it('starts in demo mode against its own sandbox', async () => {
    expect(services.sandbox).not.toBeNull();
    await expect(appInfo()).resolves.toMatchObject({ ok: true, value: { demo: true } });
    await expect(services.dispatch('lookupScan', { value: demoCard(services) }, testConnection)).resolves.toMatchObject({ ok: true, value: { kind: 'shopper' } });
  });

  it('leaves demo mode the moment it is connected', async () => {
    services.config.setMany({ 'api.baseUrl': platform.baseUrl, 'api.shopUuid': platform.manifest.shops[0]!.uuid });
    expect(pushed.at(-1)?.demo).toBe(false);
    await expect(appInfo()).resolves.toMatchObject({ ok: true, value: { demo: false } });
    // The platform's own card is known now: the calls go there, with the keychain's key.
    await expect(services.dispatch('lookupScan', { value: platform.manifest.contacts[0]!.identifiers[0]! }, testConnection)).resolves.toMatchObject({ ok: true, value: { kind: 'shopper' } });
    expect(services.platformOrigin()).toBe(new URL(platform.baseUrl).origin);
  });

  it('sent back to demo, runs against its sandbox again', async () => {
    services.config.setMany({ 'api.baseUrl': null, 'api.shopUuid': null });
    expect(pushed.at(-1)?.demo).toBe(true);
    await expect(appInfo()).resolves.toMatchObject({ ok: true, value: { demo: true } });
    expect(services.platformOrigin()).toBe(new URL(services.sandbox!.baseUrl).origin);
  });
});

describe('a kiosk that started connected', () => {
  let platform: RunningSandbox;
  let services: KioskServices;

  beforeAll(async () => {
    platform = await startSandbox({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'demo-late-platform-')), port: 0 });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-late-kiosk-'));
    fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ api: { baseUrl: platform.baseUrl } }));
    services = await startKioskServices({ dataDir, version: 'test', keychainService: `loyalty-kiosk-test-${crypto.randomUUID()}` });
  });

  afterAll(async () => {
    await services?.close();
    await platform?.close();
  });

  it('starts no sandbox until it is sent to demo mode, then serves the demo data', async () => {
    expect(services.sandbox).toBeNull();
    services.config.set('api.baseUrl', null);
    await vi.waitFor(() => expect(services.sandbox).not.toBeNull(), { timeout: 10_000 });
    await expect(services.dispatch('lookupScan', { value: demoCard(services) }, testConnection)).resolves.toMatchObject({ ok: true, value: { kind: 'shopper' } });
  });
});
