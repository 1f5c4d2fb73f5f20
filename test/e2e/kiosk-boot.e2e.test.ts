import { spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { ConfigStore } from '../../main/config/config-store.node.ts';
import { silentLogger } from '../../main/logging/logger.std.ts';
import { startSandbox } from '../../sandbox/sandbox.node.ts';
import { builtCli } from '../support/built-cli.node.ts';
import { freePort } from '../support/free-port.node.ts';
import {
  chromiumWithDevTools,
  devToolsPages,
  endSession,
  greetdSession,
  handOverCredential,
  removeBootUser,
  setupBoot,
  startSession,
  type BootUser,
} from '../support/kiosk-boot.node.ts';
import { until } from '../support/until.std.ts';

/**
 * #34 §1: a kiosk set up from the deb's boot files boots, unattended, to the attract screen with
 * its secrets readable. setup-boot makes the user and seals the keyring password; the credential is
 * handed over as the shipped unit does; greetd's session runs under cage (headless backend); the
 * keyring is unlocked from the credential with nobody typing. Two boots: the first fails a few
 * times (the out-of-service page shows), then stores the api key; the second, after a "reboot",
 * finds it. What this machine cannot do (systemd as PID 1, greetd on a VT, a TPM) is in
 * docs/kiosk-image.md.
 */

const USER = 'lk-boot-test';
const FAILURES_BEFORE_NOTICE = 2;
const BOOT_TIMEOUT_MS = 60_000;

let scratch: string;
let root: string;
let user: BootUser;
let setupOutput: string;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let dataDir: string;
let shared: string;
let session: { child: ChildProcess; output: () => string } | null = null;

/** A folder the kiosk user owns (its home is under the scratch root). */
function userFolder(name: string): string {
  const folder = path.join(user.home, name);
  fs.mkdirSync(folder, { recursive: true });
  fs.chownSync(folder, user.uid, user.gid);
  return folder;
}

function chownTree(folder: string) {
  spawnSync('chown', ['-R', `${user.uid}:${user.gid}`, folder]);
}

async function reboot(kioskCommand: string, env: Record<string, string> = {}) {
  if (session) await endSession(session.child, user);
  await until(() => spawnSync('pgrep', ['-u', String(user.uid)]).status === 1, { failure: 'the last session left processes behind' });
  const runDir = path.join(scratch, 'run-loyalty-kiosk');
  handOverCredential(root, user, runDir, scratch);
  session = startSession(greetdSession(root), user, {
    LOYALTY_KIOSK_RUN_DIR: runDir,
    LOYALTY_KIOSK_COMMAND: kioskCommand,
    LOYALTY_KIOSK_FAILURES: String(FAILURES_BEFORE_NOTICE),
    LOYALTY_KIOSK_HOLD_SECONDS: '2',
    LOYALTY_KIOSK_PAUSE_FIRST: '1',
    LOYALTY_KIOSK_PAUSE_MAX: '1',
    ...env,
  });
  const thisSession = session;
  // What the session said (cage, the session script, the host) is the first thing to read when a boot fails.
  onTestFailed(() => void process.stderr.write(`kiosk session output:\n${thisSession.output().slice(-6_000)}\n`));
}

/** The kiosk's host, as the deb's app would be started, with a Chromium the test can look into. */
function hostCommand(kioskPort: number): string {
  const browser = chromiumWithDevTools(shared, 'kiosk-chromium', kioskPort);
  return `KIOSK_BROWSER='${browser}' exec '${process.execPath}' '${builtCli('browser-host')}' --data '${dataDir}'`;
}

/** The attract screen the host's Chromium shows on the cage screen, once painted. */
async function attractScreen(port: number): Promise<{ browser: Browser; page: Page }> {
  await expect.poll(async () => (await devToolsPages(port))?.some((page) => page.type === 'page'), { timeout: BOOT_TIMEOUT_MS }).toBe(true);
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`, { timeout: BOOT_TIMEOUT_MS });
  const page = browser.contexts().flatMap((context) => context.pages())[0]!;
  await page.getByTestId('attract-screen').waitFor({ timeout: BOOT_TIMEOUT_MS });
  await page.locator('#boot-cover').waitFor({ state: 'detached', timeout: BOOT_TIMEOUT_MS });
  return { browser, page };
}

beforeAll(async () => {
  expect(process.getuid?.(), 'the boot test makes a system user: run it as root (CI does)').toBe(0);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'kiosk-boot-'));
  fs.chmodSync(scratch, 0o755);
  root = path.join(scratch, 'root');
  // As systemd-tmpfiles makes it at every boot (x11.conf): cage's Xwayland refuses one another user made.
  fs.mkdirSync('/tmp/.X11-unix', { recursive: true });
  fs.chownSync('/tmp/.X11-unix', 0, 0);
  fs.chmodSync('/tmp/.X11-unix', 0o1777);
  await removeBootUser(USER);
  ({ output: setupOutput, user } = setupBoot(root, USER));
  sandbox = await startSandbox({ dataDir: fs.mkdtempSync(path.join(scratch, 'platform-')), port: 0 });
  shared = userFolder('boot-test');
  dataDir = userFolder('kiosk-data');
  const store = new ConfigStore({ dataDir, logger: silentLogger });
  store.setMany({ 'api.baseUrl': sandbox.baseUrl, 'api.shopUuid': sandbox.manifest.shops[0]!.uuid });
  chownTree(dataDir);
}, BOOT_TIMEOUT_MS);

afterAll(async () => {
  if (session) await endSession(session.child, user);
  await sandbox?.close();
  await removeBootUser(USER);
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('setup-boot (the deb\'s post-install)', () => {
  it('makes the kiosk user, seals a keyring password with the host key here (no TPM2), and sets greetd into cage', () => {
    expect(setupOutput).toMatch(/now boots into the kiosk as lk-boot-test \(greetd, cage\); the keyring is sealed with host\./);
    const etc = path.join(root, 'etc', 'loyalty-kiosk');
    expect(fs.statSync(etc).mode & 0o777).toBe(0o700);
    expect(fs.readFileSync(path.join(etc, 'keyring.protection'), 'utf8')).toBe('host\n');
    // Sealed: systemd-creds' own format, never the password in clear.
    expect(spawnSync('systemd-creds', ['decrypt', path.join(etc, 'keyring.cred'), '-']).status).not.toBe(0);
    expect(greetdSession(root)).toEqual(['cage', '-s', '--', expect.stringMatching(/build\/boot\/kiosk-session$/)]);
    expect(fs.readFileSync(path.join(root, 'etc', 'greetd', 'config.toml'), 'utf8')).toMatch(/^user = "lk-boot-test"$/m);
    expect(fs.readFileSync(path.join(root, 'etc', 'systemd', 'system', 'greetd.service.d', 'loyalty-kiosk.conf'), 'utf8')).toMatch(/^StartLimitIntervalSec=0$/m);
  });

  it('changes nothing when run again: the same sealed password, the same user', () => {
    const sealed = fs.readFileSync(path.join(root, 'etc', 'loyalty-kiosk', 'keyring.cred'));
    const again = setupBoot(root, USER);
    expect(again.user.uid).toBe(user.uid);
    expect(fs.readFileSync(path.join(root, 'etc', 'loyalty-kiosk', 'keyring.cred'))).toEqual(sealed);
  });
});

describe('the kiosk session under cage, unattended', () => {
  it('after repeated failures shows the out-of-service page, never a desktop, and closes it once the kiosk holds', async () => {
    const [viewerPort, kioskPort] = await Promise.all([freePort(), freePort()]);
    const viewer = chromiumWithDevTools(shared, 'viewer-chromium', viewerPort);
    fs.writeFileSync(path.join(shared, 'api-key'), sandbox.manifest.credentials.api_key);
    chownTree(shared);
    // Fails until the test has seen the page; then stores the api key (as the wizard would) and runs the kiosk.
    const kiosk = [
      `[ -e '${shared}/go' ] || exit 3`,
      `'${process.execPath}' '${builtCli('kioskctl')}' --data '${dataDir}' secrets set api-key < '${shared}/api-key' || exit 4`,
      hostCommand(kioskPort),
    ].join('\n');
    await reboot(kiosk, { LOYALTY_KIOSK_OUT_OF_SERVICE: `exec '${viewer}' --user-data-dir='${shared}/viewer-profile' --no-first-run --password-store=basic --kiosk "--app=file://$1"` });

    await expect
      .poll(async () => (await devToolsPages(viewerPort))?.find((page) => page.type === 'page')?.title, { timeout: BOOT_TIMEOUT_MS })
      .toBe('Out of service');
    expect(session!.output()).toContain(`the kiosk failed ${FAILURES_BEFORE_NOTICE} times in a row: showing the out-of-service page`);
    const notice = await chromium.connectOverCDP(`http://127.0.0.1:${viewerPort}`, { timeout: BOOT_TIMEOUT_MS });
    const noticePage = notice.contexts().flatMap((context) => context.pages())[0]!;
    await expect(noticePage.getByRole('alert').textContent()).resolves.toContain('Please ask a member of staff.');
    await notice.close();

    fs.writeFileSync(path.join(shared, 'go'), '');
    const { browser, page } = await attractScreen(kioskPort);
    await expect(page.getByTestId('demo-badge').count()).resolves.toBe(0);
    // Cage gives the one window the whole output: the page is as large as the screen.
    const [width, height, screenWidth, screenHeight] = await page.evaluate(() => [innerWidth, innerHeight, screen.width, screen.height]);
    expect({ width, height }).toEqual({ width: screenWidth, height: screenHeight });
    await page.screenshot({ path: 'test-results/screens/boot-cage-attract.png' });
    await browser.close();
    // The kiosk held: the page is closed, the kiosk's window alone on the screen.
    await expect.poll(() => devToolsPages(viewerPort), { timeout: BOOT_TIMEOUT_MS }).toBeNull();
  }, 2 * BOOT_TIMEOUT_MS);

  it('after a reboot, opens the keyring with the machine credential alone and the kiosk reads its key (not the demo)', async () => {
    const kioskPort = await freePort();
    const doctor = `'${process.execPath}' '${builtCli('kioskctl')}' --data '${dataDir}' doctor > '${shared}/doctor.txt'`;
    await reboot(`${doctor}\n${hostCommand(kioskPort)}`);
    const { browser, page } = await attractScreen(kioskPort);
    await expect(page.getByTestId('demo-badge').count()).resolves.toBe(0);
    await browser.close();
    expect(session!.output()).toContain('keyring unlocked with the host machine credential');
    const doctorText = fs.readFileSync(path.join(shared, 'doctor.txt'), 'utf8');
    expect(doctorText).toMatch(/^keychain\s+OK\s+reachable; unlocked at boot by a machine credential sealed with the host key \(no TPM2\)$/m);
    expect(doctorText).toMatch(/^credentials\s+OK\s+api key stored$/m);
    expect(doctorText).toMatch(/^api\s+OK/m);
    // The key is in the keyring's file, encrypted: never in clear on disk.
    const keyrings = path.join(user.home, '.local', 'share', 'keyrings');
    const onDisk = fs.readdirSync(keyrings).map((file) => fs.readFileSync(path.join(keyrings, file)).toString('latin1'));
    expect(onDisk.length).toBeGreaterThan(0);
    for (const content of onDisk) expect(content).not.toContain(sandbox.manifest.credentials.api_key);
  }, 2 * BOOT_TIMEOUT_MS);

  it('after a reinstall that lost /etc/loyalty-kiosk but kept the home, sets the old keyring aside and boots to a new one with no prompt', async () => {
    if (session) await endSession(session.child, user);
    session = null;
    fs.rmSync(path.join(root, 'etc', 'loyalty-kiosk'), { recursive: true, force: true });
    const keyrings = path.join(user.home, '.local', 'share', 'keyrings');
    const again = setupBoot(root, USER);
    expect(again.output).toMatch(/the login keyring from before this machine credential was set aside \(.*login\.keyring\.before-\d{14}\): nothing can open it now, so set the kiosk's credentials again/);
    expect(fs.readdirSync(keyrings)).not.toContain('login.keyring');

    // The old keyring would have asked on the screen for a password nobody has, and doctor would wait behind it.
    const report = path.join(shared, 'doctor-reinstalled.txt');
    // Written whole once doctor has finished (it exits non-zero: no api key is stored).
    const doctor = `'${process.execPath}' '${builtCli('kioskctl')}' --data '${dataDir}' doctor > '${report}.part'; mv '${report}.part' '${report}'`;
    await reboot(`${doctor}\nexec sleep 600`);
    await until(() => fs.existsSync(report), { failure: 'doctor never finished on the reinstalled kiosk', timeoutMs: BOOT_TIMEOUT_MS });
    const doctorText = fs.readFileSync(report, 'utf8');
    expect(doctorText).toMatch(/^keychain\s+OK\s+reachable; unlocked at boot by a machine credential/m);
    expect(doctorText).toMatch(/^credentials\s+FAIL\s+no api key stored/m);
    expect(fs.readdirSync(keyrings)).toContain('login.keyring');
  }, 2 * BOOT_TIMEOUT_MS);
});
