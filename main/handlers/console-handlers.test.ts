import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startKioskServices, type KioskServices } from '../kiosk-services.node.ts';
import { SECRET_NAMES, KeytarSecretStore } from '../secrets/secret-store.node.ts';
import { silentLogger } from '../logging/logger.std.ts';
import { BridgeConnection } from '../bridge/dispatcher.std.ts';
import { hashPin, verifyPin } from '../manager/pin-hash.node.ts';
import { firstRunNotice, setupCode } from '../manager/setup-code.node.ts';

// The console's rules, through the same dispatcher both hosts use, on a real demo kiosk and keychain.
const keychainService = `loyalty-kiosk-test-${crypto.randomUUID()}`;
const running: KioskServices[] = [];

async function kiosk(dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-manager-'))) {
  const services = await startKioskServices({ dataDir, version: 'test', keychainService });
  running.push(services);
  /** Calls as one bridge connection (one window, one WebSocket) would. */
  const caller = (connection: BridgeConnection) => (name: string, input: unknown = {}) =>
    services.dispatch(name, input, connection) as Promise<{ ok: boolean; value?: any; error?: any }>;
  const call = caller(new BridgeConnection('console'));
  // As IT would at a fresh kiosk: the wizard's setup session, opened with the setup code (refused on a kiosk that is not fresh).
  await call('startSetup', { code: setupCode(dataDir) });
  return { services, call, caller, dataDir };
}

afterEach(async () => {
  for (const services of running.splice(0)) await services.close();
  const secrets = new KeytarSecretStore({ logger: silentLogger, service: keychainService });
  for (const name of SECRET_NAMES) await secrets.remove(name).catch(() => {});
});

describe('PIN hashing', () => {
  it('stores a salted scrypt hash that verifies only the right PIN', async () => {
    const [one, two] = [await hashPin('4711'), await hashPin('4711')];
    expect(one).toMatch(/^scrypt\$/);
    expect(one).not.toBe(two);
    expect(one).not.toContain('4711');
    await expect(verifyPin('4711', one)).resolves.toBe(true);
    await expect(verifyPin('4712', one)).resolves.toBe(false);
    await expect(verifyPin('4711', 'plain-4711')).resolves.toBe(false);
    await expect(hashPin('12')).rejects.toThrow(/4 to 8 digits/);
  });
});

describe('manager console in main', () => {
  it('opens a fresh kiosk\'s first run only with the setup code: touch alone sets nothing up, and wrong codes count (#34 §2)', async () => {
    const { caller, dataDir, services } = await kiosk();
    // Said where only whoever started the kiosk looks: its terminal (never the log).
    expect(firstRunNotice(dataDir, services.config, false)).toBe(`Console setup code (first run; also: kioskctl setup-code): ${setupCode(dataDir)}\n`);
    // The journal is read by more than whoever started the kiosk: it gets the way to the code only.
    expect(firstRunNotice(dataDir, services.config, true)).toBe('Console setup code (first run): kioskctl setup-code prints it\n');
    expect(fs.readFileSync(path.join(dataDir, 'logs', 'kiosk.log'), 'utf8')).not.toContain(setupCode(dataDir));
    expect(fs.statSync(path.join(dataDir, 'setup-code')).mode & 0o077).toBe(0);
    const stranger = caller(new BridgeConnection('stranger at the screen'));
    const refused = { ok: false, error: { code: 'forbidden', message: expect.stringMatching(/setup code/) } };
    await expect(stranger('getConsoleSettings')).resolves.toMatchObject(refused);
    await expect(stranger('setManagerPin', { pin: '2580' })).resolves.toMatchObject(refused);
    await expect(stranger('updateSettings', { values: { 'api.baseUrl': 'https://attacker.example/api' } })).resolves.toMatchObject(refused);
    await expect(stranger('startSetup', { code: '1234' })).resolves.toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    const wrong = setupCode(dataDir) === '00000000' ? '11111111' : '00000000';
    await expect(stranger('startSetup', { code: wrong })).resolves.toMatchObject({ ok: true, value: { unlocked: false, attemptsLeft: 4 } });
    await expect(stranger('startSetup', { code: setupCode(dataDir) })).resolves.toMatchObject({ ok: true, value: { unlocked: true, pinSet: false } });
    await expect(stranger('getConsoleSettings')).resolves.toMatchObject({ ok: true });
    await expect(stranger('setManagerPin', { pin: '2580' })).resolves.toMatchObject({ ok: true, value: { pinSet: true } });
    // With a PIN the setup code opens nothing, and the terminal no longer shows it.
    await expect(stranger('startSetup', { code: setupCode(dataDir) })).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(firstRunNotice(dataDir, services.config, false)).toBe('');
  });

  it('is open on a first run only until a PIN is set, then needs the PIN', async () => {
    const { call } = await kiosk();
    await expect(call('managerStatus')).resolves.toMatchObject({ ok: true, value: { pinSet: false } });
    expect((await call('getConsoleSettings')).ok).toBe(true);
    await expect(call('setManagerPin', { pin: '2580' })).resolves.toMatchObject({ ok: true, value: { pinSet: true, unlocked: true } });
    await call('lockManager');
    await expect(call('getConsoleSettings')).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await expect(call('updateSettings', { values: { 'kiosk.modes': ['vouchers'] } })).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await expect(call('unlockManager', { pin: '2580' })).resolves.toMatchObject({ ok: true, value: { unlocked: true } });
    expect((await call('getConsoleSettings')).value.config.kiosk.modes).toEqual(['regular']);
  });

  it('opens only for the connection that entered the PIN: another window or WebSocket stays locked', async () => {
    const { call, caller } = await kiosk();
    const other = caller(new BridgeConnection('other'));
    await call('setManagerPin', { pin: '2580' });
    await expect(call('getConsoleSettings')).resolves.toMatchObject({ ok: true });
    await expect(other('getConsoleSettings')).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await expect(other('managerStatus')).resolves.toMatchObject({ ok: true, value: { pinSet: true, unlocked: false } });
    await expect(other('unlockManager', { pin: '2580' })).resolves.toMatchObject({ ok: true, value: { unlocked: true } });
    await other('lockManager');
    await expect(other('quitKiosk')).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
    // Locking one leaves the other as it was.
    await expect(call('managerStatus')).resolves.toMatchObject({ ok: true, value: { unlocked: true } });
  });

  it('locks the pad after five wrong PINs, also across a restart', async () => {
    const first = await kiosk();
    await first.call('setManagerPin', { pin: '2580' });
    for (let attempt = 1; attempt <= 4; attempt++) {
      await expect(first.call('unlockManager', { pin: '0000' })).resolves.toMatchObject({ ok: true, value: { unlocked: false, attemptsLeft: 5 - attempt } });
    }
    const fifth = await first.call('unlockManager', { pin: '0000' });
    expect(fifth.value.lockedUntil).toBeGreaterThan(Date.now() + 4 * 60_000);
    await expect(first.call('unlockManager', { pin: '2580' })).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await first.services.close();
    running.splice(0);

    const again = await kiosk(first.dataDir);
    await expect(again.call('managerStatus')).resolves.toMatchObject({ ok: true, value: { lockedUntil: expect.any(Number) } });
    await expect(again.call('unlockManager', { pin: '2580' })).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('takes PIN attempts one at a time: twenty at once still lock after five, and the right PIN after them is refused', async () => {
    const { call } = await kiosk();
    await call('setManagerPin', { pin: '2580' });
    await call('lockManager');
    // Sent together, as a script on the page could; the right PIN is the eighth.
    const pins = Array.from({ length: 20 }, (_, index) => (index === 7 ? '2580' : '0000'));
    const answers = await Promise.all(pins.map((pin) => call('unlockManager', { pin })));
    expect(answers.slice(0, 5).map((answer) => answer.value?.attemptsLeft)).toEqual([4, 3, 2, 1, 5]);
    expect(answers[4]!.value.lockedUntil).toBeGreaterThan(Date.now() + 4 * 60_000);
    for (const answer of answers.slice(5)) expect(answer).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await expect(call('managerStatus')).resolves.toMatchObject({ value: { unlocked: false, lockedUntil: expect.any(Number) } });
    await expect(call('getConsoleSettings')).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('changes settings all or nothing, never the PIN hash, and never shows it', async () => {
    const { call } = await kiosk();
    await call('setManagerPin', { pin: '2580' });
    const changed = await call('updateSettings', { values: { 'kiosk.modes': ['vouchers'], 'idle.timeoutSeconds': 90 } });
    expect(changed.value.config).toMatchObject({ kiosk: { modes: ['vouchers'] }, idle: { timeoutSeconds: 90 } });
    expect(JSON.stringify(changed.value)).not.toContain('scrypt');
    await expect(call('updateSettings', { values: { 'kiosk.modes': ['regular'], 'idle.timeoutSeconds': 1 } })).resolves.toMatchObject({ ok: false, error: { code: 'validation' } });
    expect((await call('getConsoleSettings')).value.config.kiosk.modes).toEqual(['vouchers']);
    await expect(call('updateSettings', { values: { 'manager.pinHash': 'x' } })).resolves.toMatchObject({ ok: false, error: { code: 'validation' } });
  });

  it('exports settings without secrets or PIN and imports them all or nothing', async () => {
    const { call } = await kiosk();
    await call('setManagerPin', { pin: '2580' });
    // Before the secret is stored: the keychain is the user's, and a fresh kiosk beside stored secrets stays locked.
    const other = await kiosk();
    await other.call('setManagerPin', { pin: '1234' });
    await call('setSecret', { name: 'apiKey', value: 'fake-console-secret-value' });
    await call('updateSettings', { values: { 'brand.name': 'Bakkerij Jansen' } });
    const exported = (await call('exportSettings')).value;
    expect(exported).toMatchObject({ delivery: 'download', fileName: expect.stringMatching(/^loyalty-kiosk-settings-.*\.json$/) });
    const json = exported.content;
    expect(json).toContain('Bakkerij Jansen');
    expect(json).not.toContain('fake-console-secret-value');
    expect(json).not.toContain('pinHash');

    await expect(other.call('importSettings', { json })).resolves.toMatchObject({ ok: true, value: { config: { brand: { name: 'Bakkerij Jansen' } } } });
    const broken = JSON.stringify({ brand: { name: 'X' }, idle: { timeoutSeconds: 'soon' } });
    await expect(other.call('importSettings', { json: broken })).resolves.toMatchObject({ ok: false, error: { code: 'validation' } });
    expect((await other.call('getConsoleSettings')).value.config.brand.name).toBe('Bakkerij Jansen');
  });

  it('keeps secrets write-only: status says stored, nothing gives the value back', async () => {
    const { call, services } = await kiosk();
    await call('setManagerPin', { pin: '2580' });
    const stored = await call('setSecret', { name: 'personalAccessToken', value: 'fake-pat-for-console' });
    expect(stored.value.stored.personalAccessToken).toBe(true);
    const exported = await call('exportDiagnostics');
    const answers = JSON.stringify([stored, await call('getConsoleSettings'), await call('getDiagnostics'), exported]);
    expect(answers).not.toContain('fake-pat-for-console');
    // The export carries the whole log, not only the tail the console shows.
    const logs = (JSON.parse(exported.value.content) as { logs: Array<{ name: string; text: string }> }).logs;
    expect(logs.at(-1)?.name).toBe('kiosk.log');
    expect(logs.at(-1)?.text).toContain('"event":"services.started"');
    expect(fs.readFileSync(services.logSink.file, 'utf8').startsWith(logs.at(-1)!.text)).toBe(true);
    expect(fs.readFileSync(services.logSink.file, 'utf8')).not.toContain('fake-pat-for-console');
    await expect(call('removeSecret', { name: 'personalAccessToken' })).resolves.toMatchObject({ ok: true, value: { stored: { personalAccessToken: false } } });
  });

  it('learns of wedge and camera scans from the renderer for diagnostics: when and from where, never the value', async () => {
    const { call, services } = await kiosk();
    await expect(call('getDiagnostics')).resolves.toMatchObject({ ok: true, value: { scanner: { connection: 'keyboard', state: 'not_used' } } });
    expect((await call('getDiagnostics')).value.scanner.lastScanAt).toBeUndefined();
    // While the console is locked too: shoppers scan then.
    await call('setManagerPin', { pin: '2580' });
    await call('lockManager');
    const before = Date.now();
    await expect(call('reportScan', { source: 'keyboard' })).resolves.toEqual({ ok: true, value: null });
    await expect(call('reportScan', { source: 'keyboard', value: 'KOFFIE24' })).resolves.toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    await expect(call('reportScan', { source: 'telepathy' })).resolves.toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    await call('unlockManager', { pin: '2580' });
    const { scanner } = (await call('getDiagnostics')).value;
    expect(scanner).toMatchObject({ lastScanSource: 'keyboard', lastScanAt: expect.any(Number) });
    expect(scanner.lastScanAt).toBeGreaterThanOrEqual(before);
    expect(scanner.lastScanAt).toBeLessThanOrEqual(Date.now());

    await call('reportScan', { source: 'camera' });
    await expect(call('getDiagnostics')).resolves.toMatchObject({ value: { scanner: { lastScanSource: 'camera' } } });
    expect(fs.readFileSync(services.logSink.file, 'utf8')).not.toContain('KOFFIE24');
  });

  it('starts on a disk that refuses the log, and diagnostics show the lines it dropped', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-manager-'));
    fs.mkdirSync(path.join(dataDir, 'logs'));
    // The full device itself as the log (/dev/full's major and minor): a link to it is not followed.
    execFileSync('mknod', [path.join(dataDir, 'logs', 'kiosk.log'), 'c', '1', '7']);
    const { call } = await kiosk(dataDir);
    await call('setManagerPin', { pin: '2580' });
    const { log, logTail } = (await call('getDiagnostics')).value;
    expect(log).toMatchObject({ droppedLines: expect.any(Number), lastProblem: 'ENOSPC' });
    expect(log.droppedLines).toBeGreaterThanOrEqual(2);
    expect(logTail).toEqual([]);
  });

  it('shows no dropped log lines while the disk works', async () => {
    const { call } = await kiosk();
    await expect(call('getDiagnostics')).resolves.toMatchObject({ ok: true, value: { log: { droppedLines: 0, lastProblem: null } } });
  });

  it('runs voucher and reward-attribute admin against the platform', async () => {
    const { call, services } = await kiosk();
    const manifest = JSON.parse(fs.readFileSync(services.sandbox!.manifestPath, 'utf8'));
    const page = await call('adminListVouchers', { limit: 5, page: 2 });
    expect(page.value).toMatchObject({ page: 2, total: 20 });
    expect(page.value.vouchers).toHaveLength(5);
    const created = await call('adminCreateVoucher', { promotion_uuid: manifest.promotions[0].uuid, code: 'CONSOLE01', total_redemptions_allowed: 2 });
    expect(created.value).toMatchObject({ code: 'CONSOLE01', status: 'ACTIVE' });
    const deactivated = await call('adminUpdateVoucher', { voucherUuid: created.value.uuid, status: 'DEACTIVATED' });
    expect(deactivated.value.status).toBe('DEACTIVATED');
    const refused = await call('adminCreateVoucher', { promotion_uuid: manifest.promotions[0].uuid, code: 'CONSOLE01' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'conflict', platformCode: 80003 } });
    // Reward attributes are account-wide: IT opens them on a kiosk (as kioskctl config set would).
    services.config.set('console.platformAdmin', true);
    const attribute = await call('adminCreateRewardAttribute', { name: 'flavour', type: 'select', options: [{ label: 'Vanilla', value: 'vanilla' }] });
    expect(attribute.value).toMatchObject({ name: 'flavour', fieldType: 'select', options: [{ label: 'Vanilla', value: 'vanilla' }] });
  });

  it('keeps account-wide reward attributes shut unless IT set console.platformAdmin, which the console itself cannot set (#34 §2)', async () => {
    const { call, services } = await kiosk();
    await expect(call('managerStatus')).resolves.toMatchObject({ ok: true, value: { platformAdmin: false } });
    const shut = { ok: false, error: { code: 'forbidden', message: expect.stringMatching(/console\.platformAdmin/) } };
    await expect(call('adminListRewardAttributes')).resolves.toMatchObject(shut);
    await expect(call('adminCreateRewardAttribute', { name: 'not_sent', type: 'text' })).resolves.toMatchObject(shut);
    // Not from the console: neither a setting nor an import opens it.
    await expect(call('updateSettings', { values: { 'console.platformAdmin': true } })).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await expect(call('importSettings', { json: JSON.stringify({ console: { platformAdmin: true } }) })).resolves.toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/set by IT only.*console\.platformAdmin/) },
    });
    expect(services.config.get().console.platformAdmin).toBe(false);

    services.config.set('console.platformAdmin', true);
    await expect(call('managerStatus')).resolves.toMatchObject({ ok: true, value: { platformAdmin: true } });
    await expect(call('adminListRewardAttributes')).resolves.toMatchObject({ ok: true });
  });
});

describe('manager console without a PIN', () => {
  const keychain = () => new KeytarSecretStore({ logger: silentLogger, service: keychainService });
  const dataDirWith = (config: object) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-manager-'));
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
    return dir;
  };
  const blocked = { ok: false, error: { code: 'forbidden', message: expect.stringMatching(/kioskctl pin set/) } };

  it('stays locked on a kiosk with stored secrets or a platform address: no wizard, no settings, no PIN from the console', async () => {
    const staysLocked = async (call: Awaited<ReturnType<typeof kiosk>>['call']) => {
      await expect(call('managerStatus')).resolves.toMatchObject({ ok: true, value: { pinSet: false, setupBlocked: 'pin_required', unlocked: false } });
      await expect(call('getConsoleSettings')).resolves.toMatchObject(blocked);
      await expect(call('setManagerPin', { pin: '2580' })).resolves.toMatchObject(blocked);
      await expect(call('updateSettings', { values: { 'api.baseUrl': 'https://attacker.example/api' } })).resolves.toMatchObject(blocked);
    };
    await keychain().set('apiKey', 'stored-before-the-pin-was-lost');
    await staysLocked((await kiosk(dataDirWith({ kiosk: { modes: ['vouchers'] } }))).call);
    await keychain().remove('apiKey');
    const connected = await kiosk(dataDirWith({ api: { baseUrl: 'http://127.0.0.1:9/api' } }));
    await staysLocked(connected.call);
    expect(connected.services.config.get().manager.pinHash).toBeNull();
    expect(connected.services.config.get().api.baseUrl).toBe('http://127.0.0.1:9/api');
  });

  it('keeps the PIN when another value in config.json is bad, and stays locked when a damaged file lost it', async () => {
    const pinHash = await hashPin('2580');
    await keychain().set('apiKey', 'a-stored-key');
    const badValue = await kiosk(dataDirWith({ idle: { timeoutSeconds: 5 }, manager: { pinHash } }));
    await expect(badValue.call('managerStatus')).resolves.toMatchObject({ ok: true, value: { pinSet: true, setupBlocked: null } });
    await expect(badValue.call('getConsoleSettings')).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await expect(badValue.call('unlockManager', { pin: '2580' })).resolves.toMatchObject({ ok: true, value: { unlocked: true } });

    const truncated = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-manager-'));
    fs.writeFileSync(path.join(truncated, 'config.json'), JSON.stringify({ manager: { pinHash } }).slice(0, 20));
    const damaged = await kiosk(truncated);
    await expect(damaged.call('managerStatus')).resolves.toMatchObject({ ok: true, value: { pinSet: false, setupBlocked: 'pin_required' } });
    await expect(damaged.call('getConsoleSettings')).resolves.toMatchObject(blocked);
  });

  it('lets a fresh kiosk\'s wizard store credentials before its PIN; a setup abandoned before it is undone, not locked (#34 §2)', async () => {
    const finished = await kiosk();
    await expect(finished.call('managerStatus')).resolves.toMatchObject({ ok: true, value: { pinSet: false, setupBlocked: null } });
    await expect(finished.call('setSecret', { name: 'apiKey', value: 'entered-in-the-wizard' })).resolves.toMatchObject({ ok: true });
    await expect(finished.call('updateSettings', { values: { 'api.baseUrl': 'http://127.0.0.1:9/api' } })).resolves.toMatchObject({ ok: true });
    await expect(finished.call('setManagerPin', { pin: '2580' })).resolves.toMatchObject({ ok: true, value: { pinSet: true } });

    await keychain().remove('apiKey');
    const abandoned = await kiosk();
    await expect(abandoned.call('setSecret', { name: 'apiKey', value: 'entered-in-the-wizard' })).resolves.toMatchObject({ ok: true });
    await abandoned.call('lockManager');
    await expect(abandoned.call('managerStatus')).resolves.toMatchObject({ ok: true, value: { pinSet: false, setupBlocked: null } });
    await expect(keychain().get('apiKey')).resolves.toBeNull();
    // A fresh kiosk again: its wizard opens with the setup code, not only by kioskctl pin set.
    await expect(abandoned.call('getConsoleSettings')).resolves.toMatchObject({ ok: false, error: { message: expect.stringMatching(/setup code/) } });
    await expect(abandoned.call('startSetup', { code: setupCode(abandoned.dataDir) })).resolves.toMatchObject({ ok: true, value: { unlocked: true } });
  });
});
