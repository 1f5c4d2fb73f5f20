import { execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../main/logging/logger.std.ts';
import { KeytarSecretStore } from '../../main/secrets/secret-store.node.ts';
import { launchChromium, KIOSK_VIEWPORTS } from '../support/chromium.node.ts';
import { screenshot } from '../support/kiosk-journey.node.ts';
import { enterSetupCode, setPinInWizard, tapCorner } from '../support/manager-console.node.ts';
import { startBrowserHostProcess, type BrowserHostProcess } from '../support/browser-host-process.node.ts';
import { makeFolderReadOnly } from '../support/read-only-folder.node.ts';
import { builtCli } from '../support/built-cli.node.ts';
import { dataFiles } from '../../main/paths/data-files.node.ts';

// The browser host as a kiosk image runs it: its own process, under this file's own keychain name.
const env = { KIOSK_KEYCHAIN_SERVICE: `loyalty-kiosk-test-${crypto.randomUUID()}` };

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-startup-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const startHost = async (dataDir: string) => {
  const host = await startBrowserHostProcess({ dataDir, env });
  cleanups.push(() => host.stop('SIGKILL'));
  return host;
};

/** A browser host expected not to start: its exit code and everything it wrote. With `browser`, it may open that one. */
function hostThatExits(dataDir: string, browser?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const open = browser ? [] : ['--no-open'];
    const child = spawn(process.execPath, [builtCli('browser-host'), ...open, '--port', '0', '--data', dataDir], {
      env: { ...process.env, ...env, ...(browser ? { KIOSK_BROWSER: browser, DISPLAY: ':99' } : {}) },
    });
    cleanups.push(() => child.exitCode === null && child.kill('SIGKILL'));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * A stand-in browser that stays open until it is ended, and writes down its process id: whether a
 * failed start left a window behind (it opens beside the start) can then be asked.
 */
function browserStub() {
  const dir = tempDir();
  const pidFile = path.join(dir, 'pid');
  const stub = path.join(dir, 'chromium');
  fs.writeFileSync(stub, `#!/bin/sh\necho $$ > '${pidFile}'\nexec sleep 600\n`, { mode: 0o755 });
  /** Whether the stub's process is alive; a zombie waiting for its reaper has ended. */
  const stillRunning = () => {
    try {
      const stat = fs.readFileSync(`/proc/${fs.readFileSync(pidFile, 'utf8').trim()}/stat`, 'utf8');
      return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
    } catch {
      return false; // never started, or gone
    }
  };
  cleanups.push(() => stillRunning() && process.kill(Number(fs.readFileSync(pidFile, 'utf8')), 'SIGKILL'));
  return { stub, pidFile, stillRunning };
}

function kioskctl(dataDir: string, args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [builtCli('kioskctl'), '--data', dataDir, ...args], { env: { ...process.env, ...env } }, (_error, stdout) =>
      resolve({ code: child.exitCode, stdout }),
    );
  });
}

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('browser host: one kiosk per data folder', () => {
  it('refuses a second host on the folder in one line; kioskctl still works beside it; after a SIGKILL a new host starts', async () => {
    const dataDir = path.join(tempDir(), 'Loyalty Kiosk');
    const first: BrowserHostProcess = await startHost(dataDir);
    // A fresh folder and its settings are its owner's alone.
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(dataFiles(dataDir).config)).toBe(0o600);

    // The second may not even open its browser: its Chromium profile is the running kiosk's.
    const browser = browserStub();
    const [second, looked, changed] = await Promise.all([
      hostThatExits(dataDir, browser.stub),
      kioskctl(dataDir, ['config', 'get', 'kiosk.modes']),
      kioskctl(dataDir, ['config', 'set', 'idle.timeoutSeconds', '90']),
    ]);
    expect(second.code).toBe(75);
    expect(second.stderr).toMatch(/^Loyalty Kiosk cannot start: another kiosk \(process \d+\) is already running on the data folder .*Loyalty Kiosk; stop it first\n$/);
    expect(second.stdout).not.toMatch(/Kiosk UI/);
    expect(fs.existsSync(browser.pidFile)).toBe(false);
    expect(looked).toMatchObject({ code: 0, stdout: '["regular"]\n' });
    expect(changed.code).toBe(0);

    await first.stop('SIGKILL');
    const next = await startHost(dataDir);
    expect(next.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  });
});

describe('browser host: a start that cannot go on', () => {
  it('on a read-only data folder: one line, exit code 78, no stack', async () => {
    const dataDir = tempDir();
    const restore = makeFolderReadOnly(dataDir);
    cleanups.push(restore);
    const run = await hostThatExits(dataDir);
    expect(run.code).toBe(78);
    expect(run.stderr).toMatch(new RegExp(`^Loyalty Kiosk cannot start: the data folder ${dataDir} cannot be written \\((EPERM|EACCES)\\)[^\\n]*\\n$`));
  });

  it('on a damaged demo state: one line, exit code 78, and nothing of the file (it holds demo credentials)', async () => {
    const dataDir = tempDir();
    const first = await startHost(dataDir);
    await first.stop();
    const stateFile = path.join(dataDir, 'sandbox', 'state.json');
    const state = fs.readFileSync(stateFile, 'utf8');
    const apiKey = (JSON.parse(state) as { credentials: { api_key: string } }).credentials.api_key;
    fs.writeFileSync(stateFile, state.slice(0, state.indexOf(apiKey) + apiKey.length + 3));
    // The browser opens beside the start (#32): a start that fails takes it down again.
    const browser = browserStub();
    const run = await hostThatExits(dataDir, browser.stub);
    await expect.poll(browser.stillRunning).toBe(false);
    expect(run.code).toBe(78);
    expect(run.stderr).toBe(`Loyalty Kiosk cannot start: the demo state ${stateFile} is not valid JSON (damaged or cut short); move it aside (or delete it) to start afresh on new demo data\n`);
    expect(run.stdout + run.stderr).not.toContain(apiKey);
  });
});

describe('browser host: a kiosk that lost its PIN', () => {
  it('keeps the console locked when secrets are stored, and says how to set the PIN instead of offering the wizard', async () => {
    const secrets = new KeytarSecretStore({ logger: silentLogger, service: env.KIOSK_KEYCHAIN_SERVICE });
    await secrets.set('apiKey', 'stored-before-config-json-broke');
    cleanups.push(() => secrets.remove('apiKey'));
    const dataDir = tempDir();
    // A config.json cut short: the PIN hash in it cannot be read back.
    fs.writeFileSync(dataFiles(dataDir).config, '{"manager": {"pinHash": "scrypt$16384$8$1$c2Fs');
    const host = await startHost(dataDir);
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    const page = await browser.newPage({ viewport: KIOSK_VIEWPORTS.portrait, hasTouch: true });
    await page.goto(host.url);
    await page.getByTestId('attract-screen').waitFor();
    await tapCorner(page);
    const blocked = page.getByTestId('pin-setup-blocked');
    await blocked.waitFor();
    await expect(blocked.textContent()).resolves.toMatch(/no manager PIN: the console stays locked.*kioskctl pin set/);
    await expect(page.getByTestId('pin-input').count()).resolves.toBe(0);
    await expect(page.getByTestId('wizard-demo').count()).resolves.toBe(0);
    await screenshot(page, 'console-setup-blocked');
    // The damaged file is kept beside the fresh one.
    expect(fs.readdirSync(dataDir).some((name) => name.startsWith('config.json.corrupt-'))).toBe(true);
  });

  it('sets a fresh demo kiosk up without a keychain: its wizard keeps the demo and sets the PIN, and nothing more', async () => {
    const dataDir = tempDir();
    const host = await startBrowserHostProcess({ dataDir, env: { ...env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' } });
    cleanups.push(() => host.stop('SIGKILL'));
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    const page = await browser.newPage({ viewport: KIOSK_VIEWPORTS.portrait, hasTouch: true });
    await page.goto(host.url);
    await page.getByTestId('attract-screen').waitFor();
    await expect(page.evaluate(() => window.kiosk.managerStatus())).resolves.toMatchObject({ ok: true, value: { pinSet: false, setupBlocked: null, setupDemoOnly: true } });
    await tapCorner(page);
    await enterSetupCode(page, dataDir);
    // Main holds the line, whatever the page asks, its setup session open: no address, no credentials before a PIN.
    const forbidden = { ok: false, error: { code: 'forbidden', message: expect.stringMatching(/keychain cannot be read/) } };
    await expect(page.evaluate(() => window.kiosk.updateSettings({ values: { 'api.baseUrl': 'https://loyalty.example/api' } }))).resolves.toMatchObject(forbidden);
    await expect(page.evaluate(() => window.kiosk.setSecret({ name: 'apiKey', value: 'k' }))).resolves.toMatchObject(forbidden);
    await page.getByTestId('wizard-demo-only').waitFor();
    await expect(page.getByTestId('wizard-connect').isDisabled()).resolves.toBe(true);
    await screenshot(page, 'console-wizard-demo-only');
    await page.getByTestId('wizard-demo').tap();
    await setPinInWizard(page);
    // That PIN opens the demo's console only: no tabs, and why (#28 §5).
    await expect(page.getByTestId('console-demo-only').textContent()).resolves.toMatch(/kioskctl pin set/);
    await expect(page.getByTestId('tab-settings').count()).resolves.toBe(0);
    await expect(page.evaluate(() => window.kiosk.getDiagnostics())).resolves.toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await screenshot(page, 'console-demo-only-pin');
    // The PIN is in the config file, marked as set while the keychain could not be read.
    const saved = JSON.parse(fs.readFileSync(dataFiles(dataDir).config, 'utf8'));
    expect(saved.manager).toMatchObject({ pinHash: expect.stringMatching(/^scrypt\$/), secretsUnchecked: true });
    expect(saved.api.baseUrl).toBeNull();
  });
});
