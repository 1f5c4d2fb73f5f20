import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UpdateState } from '../../common/update-state.std.ts';
import { runKioskctl } from '../kioskctl/commands.node.ts';
import { appVersion } from '../paths/build-output.node.ts';
import { keepInstallersForRollback, updateFiles } from './update-files.node.ts';
import { startUpdateFeed } from './update-feed.test-support.ts';

/** `kioskctl update …` in plain Node (no Electron), against a real feed on 127.0.0.1. */

const VERSION = appVersion();
let dir: string;
let stable: Awaited<ReturnType<typeof startUpdateFeed>>;
let beta: Awaited<ReturnType<typeof startUpdateFeed>>;
const savedEnv = { KIOSK_PROVISIONING_FILE: process.env.KIOSK_PROVISIONING_FILE, APPIMAGE: process.env.APPIMAGE };

beforeAll(async () => {
  [stable, beta] = await Promise.all([startUpdateFeed('stable'), startUpdateFeed('beta')]);
  stable.publish({ version: '9.1.0', payload: Buffer.from('stable app'), stagingPercentage: 40 });
  beta.publish({ version: '9.2.0-beta.1', payload: Buffer.from('beta app') });
});
afterAll(async () => {
  await Promise.all([stable.close(), beta.close()]);
});
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kioskctl-update-'));
  process.env.KIOSK_PROVISIONING_FILE = path.join(dir, 'no-provisioning-file.json');
});
afterEach(() => {
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The tests' own keychain name (doctor asks the keychain): a real kiosk's is never touched. */
const keychainService = `loyalty-kiosk-test-${crypto.randomUUID()}`;

async function kioskctl(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runKioskctl({
    dataDir: dir,
    args,
    keychainService,
    stdin: { isTTY: false, read: async () => '' },
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

/** The printed table as first column → rest of the line. */
function rows(stdout: string): Record<string, string> {
  return Object.fromEntries(stdout.trim().split('\n').map((line) => {
    const [name = '', ...rest] = line.trim().split(/\s{2,}/);
    return [name, rest.join('  ')];
  }));
}

function configure(update: Record<string, unknown>) {
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ update }));
}

function kioskWrote(state: Partial<UpdateState>) {
  const full: UpdateState = {
    state: 'downloaded',
    note: 'waiting for the update window 03:00-05:00',
    currentVersion: VERSION,
    channel: 'stable',
    feedOrigin: new URL(stable.url).origin,
    availableVersion: '9.1.0',
    downloadedVersion: '9.1.0',
    lastCheckAt: Date.UTC(2026, 10, 24, 12),
    lastError: null,
    retryAt: null,
    failedVersion: null,
    ...state,
  };
  fs.writeFileSync(updateFiles(dir).state, JSON.stringify(full));
}

describe('kioskctl update check', () => {
  it('reads the stable feed: the version it offers, its rollout stage, and what the kiosk downloaded', async () => {
    configure({ feedUrl: stable.url });
    kioskWrote({});
    const { code, stdout } = await kioskctl('update', 'check');
    expect(code).toBe(0);
    expect(rows(stdout)).toMatchObject({
      version: VERSION,
      channel: 'stable',
      feed: stable.url,
      available: '9.1.0 (newer)',
      rollout: '40% of kiosks',
      downloaded: '9.1.0',
    });
    expect(rows(stdout)['feed file']).toMatch(/\/latest-linux.*\.yml$/);
  });

  it('reads beta-linux.yml on the beta channel', async () => {
    configure({ feedUrl: beta.url, channel: 'beta' });
    const { code, stdout } = await kioskctl('update', 'check');
    expect(code).toBe(0);
    expect(rows(stdout)).toMatchObject({ channel: 'beta', available: '9.2.0-beta.1 (newer)', rollout: 'all kiosks', downloaded: 'none' });
    expect(rows(stdout)['feed file']).toMatch(/\/beta-linux.*\.yml$/);
  });

  it('says updates are off without a feed, and fails on a feed that does not answer', async () => {
    configure({});
    expect(rows((await kioskctl('update', 'check')).stdout).feed).toBe('none: updates are off (update.feedUrl)');
    configure({ feedUrl: `${stable.url}missing/` });
    const { code, stdout } = await kioskctl('update', 'check');
    expect(code).toBe(1);
    expect(rows(stdout).available).toMatch(/^unknown: .*answered 404/);
  });
});

describe('kioskctl update check: a feed is not trusted (#20 §9)', () => {
  afterEach(() => stable.redirectTo(null));

  it('follows a redirect within the feed\'s origin, and prints where the answer came from', async () => {
    configure({ feedUrl: stable.url });
    stable.redirectTo(`${stable.channelFileUrl}?redirected`);
    const { code, stdout } = await kioskctl('update', 'check');
    expect(code).toBe(0);
    expect(rows(stdout)).toMatchObject({ available: '9.1.0 (newer)', 'feed file': `${stable.channelFileUrl}?redirected` });
  });

  it('refuses a redirect to another origin, and asks that origin nothing', async () => {
    configure({ feedUrl: stable.url });
    const elsewhere = `${new URL(beta.url).origin}/latest-linux.yml?redirected`;
    stable.redirectTo(elsewhere);
    const asked = beta.requests.length;
    const { code, stdout } = await kioskctl('update', 'check');
    expect(code).toBe(1);
    expect(rows(stdout).available).toBe(`unknown: ${stable.channelFileUrl} redirects to another origin (${new URL(beta.url).origin}): refused`);
    expect(beta.requests.length).toBe(asked);
  });

  it('refuses a version that is not semver, and prints nothing of it raw', async () => {
    configure({ feedUrl: stable.url });
    stable.publishRaw('version: "9.9.9\\e[2J\\e]0;pwned\\a"\nfiles:\n  - url: x.AppImage\n    sha512: abc\n');
    try {
      const { code, stdout } = await kioskctl('update', 'check');
      expect(code).toBe(1);
      expect(rows(stdout).available).toMatch(/is not an electron-builder update file \(it needs a semver version and files\)$/);
      expect(stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    } finally {
      stable.publish({ version: '9.1.0', payload: Buffer.from('stable app'), stagingPercentage: 40 });
    }
  });
});

describe('kioskctl update status', () => {
  it('prints what the running kiosk wrote: state, available, downloaded, failures', async () => {
    configure({ feedUrl: stable.url });
    kioskWrote({ failedVersion: '9.0.0', lastError: 'ERR_CHECKSUM_MISMATCH: sha512 checksum mismatch' });
    const { code, stdout } = await kioskctl('update', 'status');
    expect(code).toBe(0);
    expect(rows(stdout)).toMatchObject({
      version: VERSION,
      channel: 'stable',
      state: 'downloaded (waiting for the update window 03:00-05:00)',
      available: '9.1.0',
      downloaded: '9.1.0',
      'last error': 'ERR_CHECKSUM_MISMATCH: sha512 checksum mismatch',
      'failed version': '9.0.0 (skipped; kioskctl update rollback)',
      'rollback to': 'nothing kept yet',
    });
  });

  it('says so when the kiosk never wrote its state', async () => {
    const { code, stdout } = await kioskctl('update', 'status');
    expect(code).toBe(0);
    expect(rows(stdout).kiosk).toContain('no update-state.json');
  });
});

describe('kioskctl update rollback', () => {
  it('puts the kept AppImage back in place and marks the running version failed', async () => {
    const appImage = path.join(dir, 'Loyalty-Kiosk.AppImage');
    fs.writeFileSync(appImage, 'loyalty kiosk 8.0.0');
    await keepInstallersForRollback({ dataDir: dir, runningVersion: '8.0.0', runningAppImage: appImage, downloaded: { version: VERSION, file: appImage } });
    fs.writeFileSync(appImage, `loyalty kiosk ${VERSION}`); // what the update installed
    process.env.APPIMAGE = appImage;
    const { code, stdout } = await kioskctl('update', 'rollback');
    expect(code).toBe(0);
    expect(fs.readFileSync(appImage, 'utf8')).toBe('loyalty kiosk 8.0.0');
    expect(fs.statSync(appImage).mode & 0o111).not.toBe(0);
    expect(JSON.parse(fs.readFileSync(updateFiles(dir).failedVersion, 'utf8'))).toMatchObject({ version: VERSION });
    expect(stdout).toContain(`${appImage} is 8.0.0 again`);
  });

  it('prints the install command for a deb (it needs admin rights)', async () => {
    const deb = path.join(dir, 'loyalty-kiosk_9.0.0_amd64.deb');
    fs.writeFileSync(deb, 'deb');
    const kept = path.join(dir, 'loyalty-kiosk_8.0.0_amd64.deb');
    fs.writeFileSync(kept, 'old deb');
    await keepInstallersForRollback({ dataDir: dir, runningVersion: '7.0.0', runningAppImage: null, downloaded: { version: '8.0.0', file: kept } });
    await keepInstallersForRollback({ dataDir: dir, runningVersion: '8.0.0', runningAppImage: null, downloaded: { version: VERSION, file: deb } });
    const { code, stdout } = await kioskctl('update', 'rollback');
    expect(code).toBe(0);
    expect(stdout).toContain(`sudo apt install --allow-downgrades "${path.join(updateFiles(dir).previousDir, 'loyalty-kiosk_8.0.0_amd64.deb')}"`);
  });

  it('refuses when no installer was kept', async () => {
    const { code, stderr } = await kioskctl('update', 'rollback');
    expect(code).toBe(2);
    expect(stderr).toContain('no previous installer is kept');
  });
});

describe('kioskctl doctor on the update feed', () => {
  const updateRow = (stdout: string) => stdout.split('\n').find((line) => line.startsWith('update '))?.trim().split(/\s{2,}/).slice(1);

  it('passes a feed that answers with a version, fails one that does not, and skips when updates are off', async () => {
    configure({ feedUrl: stable.url });
    expect(updateRow((await kioskctl('doctor')).stdout)).toEqual(['OK', expect.stringMatching(/latest-linux.*\.yml offers 9\.1\.0 to 40% of kiosks$/)]);
    configure({ feedUrl: `${stable.url}missing/` });
    const failing = await kioskctl('doctor');
    expect(updateRow(failing.stdout)).toEqual(['FAIL', expect.stringMatching(/answered 404$/)]);
    expect(failing.code).toBe(1);
    beta.publishRaw('version: [unterminated');
    configure({ feedUrl: beta.url, channel: 'beta' });
    expect(updateRow((await kioskctl('doctor')).stdout)).toEqual(['FAIL', expect.stringMatching(/beta-linux.*\.yml is not YAML$/)]);
    beta.publishRaw('releaseDate: today\n');
    expect(updateRow((await kioskctl('doctor')).stdout)).toEqual(['FAIL', expect.stringMatching(/is not an electron-builder update file/)]);
    beta.publish({ version: '9.2.0-beta.1', payload: Buffer.from('beta app') });
    configure({});
    expect(updateRow((await kioskctl('doctor')).stdout)).toEqual(['SKIP', 'updates are off (update.feedUrl is not set)']);
  });
});
